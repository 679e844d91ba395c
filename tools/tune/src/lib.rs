//! The part of `tune` other tools share: the two-player Quoridor games of
//! `arena -pgnout` records, replayed position by position with each
//! position's result and recorded search score (`records`).

pub mod records;
