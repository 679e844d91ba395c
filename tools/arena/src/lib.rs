//! The match runner's parts, as a library: engine processes, UCI-style or
//! QTP, and their clean-up ([`engine`], [`reap`], [`signals`]); what a match
//! is asked to be ([`config`], read by [`cli`]); variants, time controls and
//! openings ([`setup`], [`openings`]); which games it plays ([`schedule`],
//! [`knockout`]) and who plays them ([`tournament`], [`play`]); the referee
//! ([`referee`]) with adjudication by scores ([`adjudicate`]) or by the pawn
//! race solver ([`race`]); game records ([`record`]); standings, statistics
//! and what is printed ([`standings`], [`ranking`], [`stats`], [`report`]);
//! results that merge ([`results`]) and the saved state a match resumes
//! from ([`state`]). The `arena` binary drives them from its command line;
//! the board (`tools/board`) runs its engines and reads records with the
//! same code.

pub mod adjudicate;
pub mod cli;
pub mod config;
pub mod engine;
pub mod knockout;
pub mod openings;
pub mod play;
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
