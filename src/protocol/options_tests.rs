//! Options: names in any case, values checked, declarations with defaults.

use super::*;

#[test]
fn names_are_case_insensitive_and_bad_values_change_nothing() {
    let mut o = Options::default();
    assert_eq!(o.set("hash", Some("64")), Ok(Changed::Hash));
    assert_eq!(o.hash, 64);
    let before = o.clone();
    assert!(o.set("Hash", Some("0")).is_err());
    assert!(o.set("Hash", Some("lots")).is_err());
    assert!(o.set("BoardWidth", Some("1")).is_err());
    assert!(o.set("BoardWidth", Some("16")).is_err());
    assert!(o.set("Players", Some("3")).is_err());
    assert!(o.set("MultiJump", Some("yes")).is_err());
    assert!(o.set("Colour", Some("red")).is_err());
    assert!(o.set("Walls", None).is_err());
    assert_eq!(o, before);
    assert_eq!(o.set("multijump", Some("TRUE")), Ok(Changed::Variant));
    assert!(o.multi_jump);
    assert_eq!(o.set("QuartoLevel", Some("3")), Ok(Changed::Variant));
    assert!(o.set("QuartoBoard", Some("3x3")).is_err());
    assert_eq!(o.set("QuartoLevel", Some("1")), Ok(Changed::Variant));
    assert_eq!(o.set("QuartoBoard", Some("3x3")), Ok(Changed::Variant));
    assert!(o.set("QuartoLevel", Some("2")).is_err());
    assert_eq!(o.quarto_rules(), crate::games::quarto::Rules { side: 3, level: 1 });
}

#[test]
fn every_option_is_declared_with_its_default() {
    let lines = Options::default().declarations();
    assert_eq!(lines.len(), DECLARATIONS.len());
    assert!(
        lines.contains(&"option name Game type combo default quoridor var quoridor var quarto".to_string())
    );
    assert!(lines.contains(&"option name Level type spin default 10 min 1 max 10".to_string()));
}

#[test]
fn the_playing_level_follows_uci_elo_only_when_strength_is_limited() {
    let mut o = Options::default();
    assert_eq!(o.playing_level(), 10);
    assert_eq!(o.set("uci_elo", Some("2335")), Ok(Changed::Other));
    assert_eq!(o.playing_level(), 10);
    assert_eq!(o.set("UCI_LimitStrength", Some("true")), Ok(Changed::Other));
    assert_eq!(o.playing_level(), 5);
    assert_eq!(o.set("Level", Some("2")), Ok(Changed::Other));
    assert_eq!(o.playing_level(), 5, "UCI_Elo rules while strength is limited");
    assert!(o.set("UCI_Elo", Some("-1")).is_err());
    assert_eq!(o.playing_level(), 5);
    assert_eq!(o.set("UCI_LimitStrength", Some("false")), Ok(Changed::Other));
    assert_eq!(o.playing_level(), 2);
}

#[test]
fn even_widths_start_left_of_centre_and_four_players_refuse_them() {
    use crate::game::Notation;
    use crate::games::quoridor::{Quoridor, VariantError};
    let mut o = Options::default();
    assert_eq!(o.set("BoardWidth", Some("8")), Ok(Changed::Variant));
    let start = Quoridor::new(&o.quoridor_variant()).expect("8x9 is playable");
    assert_eq!(start.to_text(), "quoridor 8x9 pawns=d1,d9 hand=10,10 walls=- turn=1 jumps=single");
    assert_eq!(o.set("BoardHeight", Some("8")), Ok(Changed::Variant));
    assert_eq!(o.set("Players", Some("4")), Ok(Changed::Variant));
    assert_eq!(
        Quoridor::new(&o.quoridor_variant()).err(),
        Some(VariantError::FourPlayersNeedSquareOddBoard { width: 8, height: 8 })
    );
}
