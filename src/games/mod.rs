//! The games Tabula plays, each an implementation of [`crate::game::Game`].

pub mod quoridor;
