//! `tune` as a library: the two-player Quoridor games of `arena -pgnout`
//! records, replayed position by position with each position's result and
//! recorded search score ([`records`], which other tools share), and the
//! logistic regression that fits the weights to them ([`fit`]).

pub mod fit;
pub mod records;
