//! The engines arena plays: started as processes (`process`), each
//! speaking Tabula's UCI-style protocol (`uci`) or the Quoridor Text
//! Protocol ([`qtp`]), as its `proto=` says ([`EngineSpec`]).

mod process;
pub mod qtp;
mod spec;
mod uci;

pub use process::{EngineError, EngineProcess, LINE_BYTES, OUTPUT_BYTES};
pub use spec::{DeclaredOption, EngineSpec, Protocol, SearchReport, SearchStats, DEFAULT_HANDSHAKE};
pub use uci::parse_option_line;

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

impl EngineProcess {
    /// Starts the process and completes its protocol's handshake.
    pub fn start(spec: &EngineSpec) -> Result<EngineProcess, EngineError> {
        EngineProcess::start_interruptible(spec, None)
    }

    /// As [`EngineProcess::start`]; once `interrupted` is set, this and every
    /// later wait for the engine ends with [`EngineError::Interrupted`].
    pub fn start_interruptible(
        spec: &EngineSpec,
        interrupted: Option<Arc<AtomicBool>>,
    ) -> Result<EngineProcess, EngineError> {
        let mut engine = EngineProcess::spawn(spec, interrupted)?;
        let deadline = Instant::now() + spec.handshake_timeout();
        match spec.protocol {
            Protocol::Qtp => qtp::handshake(&mut engine, deadline)?,
            Protocol::Uci => uci::handshake(&mut engine, deadline)?,
        }
        for line in &spec.init {
            engine.send(line)?;
        }
        Ok(engine)
    }

    /// Ready for the next command, earlier lines dropped: `isready`
    /// answered by `readyok`, or a QTP engine's `name` answered, in time.
    pub fn sync(&mut self, timeout: Duration) -> Result<(), EngineError> {
        match self.protocol {
            Protocol::Qtp => qtp::command(self, "name", Instant::now() + timeout).map(drop),
            Protocol::Uci => uci::ready(self, timeout),
        }
    }
}
