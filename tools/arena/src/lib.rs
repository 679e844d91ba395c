//! The match runner's parts, as a library: engine processes and their
//! clean-up ([`engine`], [`reap`]), QTP engines ([`qtp`]), variants and openings ([`setup`], files of records or positions: [`openings`]), the
//! referee ([`referee`]) and its adjudication by scores ([`adjudicate`]) or by the pawn race solver ([`race`]), game records ([`record`]), scheduling, standings (with the
//! [`ranking`] table of three or more engines) and statistics, and machine-readable results that merge ([`results`]). The
//! `arena` binary drives them from its command line; the
//! board (`tools/board`) runs its engines and reads records with the same
//! code.

pub mod adjudicate;
pub mod cli;
pub mod config;
pub mod engine;
pub mod knockout;
pub mod openings;
pub mod play;
pub mod qtp;
pub mod race;
pub mod ranking;
pub mod reap;
pub mod record;
pub mod referee;
pub mod report;
pub mod results;
pub mod schedule;
pub mod setup;
pub mod signals;
pub mod standings;
pub mod state;
pub mod stats;
pub mod tournament;
