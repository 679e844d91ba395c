//! Unit tests of the command line.

use super::*;
use crate::config::OpeningFormat;
use crate::setup::Limit;
use std::time::Duration;
use tabula::games::quoridor::Variant;

fn args(line: &str) -> Vec<String> {
    line.split_whitespace().map(String::from).collect()
}

#[test]
fn a_full_command_line() {
    let c = parse(&args(
        "-engine cmd=./a name=A option.Hash=32 -engine cmd=./b tc=10+0.1 --each st=0.2 option.Threads=1 \
         -variant game=quoridor width=7 height=7 walls=6 -games 2 -rounds 3 -repeat -concurrency 2 \
         -openings random plies=4 -sprt elo0=0 elo1=10 -maxplies 100 -recover -seed 7",
    ))
    .unwrap();
    assert_eq!(c.engines.len(), 2);
    assert_eq!(c.engines[0].spec.name, "A");
    assert_eq!(c.engines[1].spec.name, "engine2");
    assert_eq!(c.engines[0].limit, Some(Limit::MoveTime(Duration::from_millis(200))));
    assert!(matches!(c.engines[1].limit, Some(Limit::Clock { .. })));
    assert_eq!(c.engines[0].spec.options, [("Threads".into(), "1".into()), ("Hash".into(), "32".into())]);
    assert!(matches!(c.variant, GameVariant::Quoridor(Variant { width: 7, .. })));
    assert_eq!((c.games, c.rounds, c.repeat, c.concurrency), (2, 3, 2, 2));
    assert_eq!(c.openings, OpeningSource::Random { plies: 4 });
    assert_eq!(c.sprt.map(|s| s.elo1), Some(10.0));
    assert_eq!((c.max_plies, c.recover, c.seed), (Some(100), true, 7));
}

#[test]
fn the_handshake_limit_is_set_per_engine_or_for_each() {
    let c = parse(&args("-engine cmd=a handshake=2.5 -engine cmd=b -engine cmd=c -each handshake=90"))
        .expect("a valid command line");
    let limits: Vec<Duration> = c.engines.iter().map(|e| e.spec.handshake_timeout()).collect();
    assert_eq!(limits, [Duration::from_millis(2500), Duration::from_secs(90), Duration::from_secs(90)]);
    let c = parse(&args("-engine cmd=a -engine cmd=b")).expect("a valid command line");
    assert_eq!(c.engines[0].spec.handshake_timeout(), crate::engine::DEFAULT_HANDSHAKE);
    for bad in ["0", "-1", "soon", "1e30", "inf", "NaN"] {
        assert!(parse(&args(&format!("-engine cmd=a handshake={bad} -engine cmd=b"))).is_err(), "{bad}");
    }
}

#[test]
fn mistakes_are_refused() {
    assert!(parse(&args("-engine cmd=a")).is_err());
    assert!(parse(&args("-engine cmd=a -engine cmd=b -variant game=chess")).is_err());
    assert!(parse(&args("-engine cmd=a -engine cmd=b -variant players=4")).is_err());
    assert!(parse(&args("-engine cmd=a -engine cmd=b -bogus")).is_err());
    assert!(parse(&args("-engine name=x -engine cmd=b")).is_err());
    assert!(parse(&args("-engine cmd=a -engine cmd=b -variant game=quarto board=3x3 level=2")).is_err());
    assert!(parse(&args("-engine cmd=a tc=fast -engine cmd=b")).is_err());
    let four_on_even = parse(&args("-engine cmd=a -engine cmd=b -variant width=6 height=6 players=4"));
    assert!(four_on_even.err().is_some_and(|e| e.to_string().contains("odd sides")));
}

#[test]
fn even_widths_are_played_by_two() {
    let c =
        parse(&args("-engine cmd=a -engine cmd=b -variant width=4 height=7 walls=5")).expect("a 4x7 variant");
    assert!(matches!(c.variant, GameVariant::Quoridor(Variant { width: 4, height: 7, walls: 5, .. })));
    let start = c.variant.start().expect("its start").to_text();
    assert!(start.starts_with("quoridor 4x7 pawns=b1,b7 "), "{start}");
    let described = GameVariant::from_description(&c.variant.describe()).expect("read back");
    assert_eq!(described.describe(), "quoridor 4x7 walls=5 players=2");
}

#[test]
fn settings_are_checked_key_by_key() {
    let two = "-engine cmd=a -engine cmd=b";
    let refusal = |extra: &str| parse(&args(&format!("{two} {extra}"))).err().map(|e| e.to_string());
    for zero in ["-each nodes=0", "-each depth=0", "-each depth=-1"] {
        assert!(refusal(zero).is_some_and(|e| e.contains("bad value")), "{zero}");
    }
    assert_eq!(refusal("-sprt elo0=0 elo1=5 alpah=0.1"), Some("-sprt: unknown setting 'alpah'".into()));
    assert_eq!(refusal("-openings file=x orders=random"), Some("-openings: unknown setting 'orders'".into()));
    assert!(refusal("-pgnout file=x.pgn append=true").is_none(), "arena always appends");
    assert!(refusal("-pgnout file=x.pgn append=false").is_some_and(|e| e.contains("always appends")));
    assert!(refusal("-pgnout file=").is_some());
    for line in ["-pgnout x.pgn", "-pgnout file=x.pgn", "--pgnout file=x.pgn -games 2"] {
        let c = parse(&args(&format!("{two} {line}"))).expect("a valid -pgnout");
        assert_eq!(c.pgn_out, Some(PathBuf::from("x.pgn")), "{line}");
    }
    let c = parse(&args(&format!("{two} -each nodes=1000 -openings file=o.txt order=random")));
    assert!(c.is_ok(), "{c:?}");
    assert!(refusal("-openings file=o.txt plies=2").is_some_and(|e| e.contains("'plies'")));
    assert!(refusal("-openings random plies=2 order=random").is_some_and(|e| e.contains("'order'")));
}

#[test]
fn cutechess_names_for_the_seed_event_and_site() {
    let two = "-engine cmd=a -engine cmd=b";
    let c = parse(&args(&format!("{two} -srand 42"))).expect("-srand");
    assert_eq!(c.seed, 42);
    assert_eq!(parse(&args(&format!("{two} --srand 9 -seed 3"))).map(|c| c.seed), Ok(3), "the last wins");
    assert_eq!(c.event, "arena match");
    assert!(!c.site.is_empty());
    let mut line = args(two);
    line.extend(["-event", "Quoridor cup, round 2", "--site", "the \"lab\""].map(String::from));
    let c = parse(&line).expect("-event and -site");
    assert_eq!((c.event.as_str(), c.site.as_str()), ("Quoridor cup, round 2", "the \"lab\""));
    line.extend(["-event".to_string(), "two\nlines".to_string()]);
    assert_eq!(parse(&line).err().map(|e| e.to_string()), Some("-event: bad value 'two\\nlines'".into()));
    assert_eq!(
        parse(&args(&format!("{two} -srand x"))).err().map(|e| e.to_string()),
        Some("-srand: bad value 'x'".into())
    );
    assert_eq!(parse(&args(&format!("{two} -site"))), Err(CliError::Missing("-site NAME")));
}

#[test]
fn maxmoves_is_a_positive_count() {
    let two = "-engine cmd=a -engine cmd=b";
    let c = parse(&args(&format!("{two} -maxmoves 40 -maxplies 100"))).expect("-maxmoves");
    assert_eq!((c.max_moves, c.max_plies), (Some(40), Some(100)));
    assert_eq!(parse(&args(two)).map(|c| c.max_moves), Ok(None));
    for bad in ["0", "-3", "many"] {
        let refused = parse(&args(&format!("{two} -maxmoves {bad}"))).err().map(|e| e.to_string());
        assert_eq!(refused, Some(format!("-maxmoves: bad value '{bad}'")));
    }
}

#[test]
fn tc_inf_needs_a_node_or_depth_limit() {
    let two = "-engine cmd=a name=A -engine cmd=b name=B";
    let c = parse(&args(&format!("{two} -each tc=inf nodes=500"))).expect("tc=inf nodes=N");
    assert!(c.engines.iter().all(|e| e.infinite == Some(true) && e.limit == Some(Limit::Nodes(500))));
    let c = parse(&args("-engine cmd=a depth=3 tc=inf -engine cmd=b tc=40/60+0.6 -each tc=inf"));
    let c = c.expect("a clock of its own overrides -each tc=inf");
    assert_eq!((c.engines[0].infinite, c.engines[0].limit.clone()), (Some(true), Some(Limit::Depth(3))));
    let clock = Limit::Clock {
        moves: Some(40),
        base: Duration::from_secs(60),
        increment: Duration::from_millis(600),
    };
    assert_eq!((c.engines[1].infinite, c.engines[1].limit.clone()), (Some(false), Some(clock)));
    let refusal = |extra: &str| parse(&args(&format!("{two} {extra}"))).err().map(|e| e.to_string());
    for extra in [
        "-each tc=inf",
        "-each tc=10+0.1 tc=inf",
        "-each tc=inf st=0.5",
        "-each nodes=9 -engine cmd=c tc=inf st=1",
    ] {
        let refused = refusal(extra).unwrap_or_default();
        assert!(
            refused.ends_with(": tc=inf needs nodes=N or depth=N (a search without a limit never ends)"),
            "{extra}: {refused}"
        );
    }
    assert_eq!(refusal("-each tc=infinity"), Some("tc: bad value 'infinity'".into()));
}

#[test]
fn minimal_records_in_either_spelling() {
    let two = "-engine cmd=a -engine cmd=b";
    let read = |extra: &str| parse(&args(&format!("{two} {extra}"))).map(|c| (c.pgn_out, c.pgn_min));
    let min = Ok((Some(PathBuf::from("x.pgn")), true));
    assert_eq!(read("-pgnout x.pgn min"), min);
    assert_eq!(read("-pgnout file=x.pgn min=true -games 2"), min);
    assert_eq!(read("-pgnout min=true file=x.pgn"), min);
    assert_eq!(read("-pgnout x.pgn min=false"), Ok((Some(PathBuf::from("x.pgn")), false)));
    assert_eq!(read("-pgnout x.pgn"), Ok((Some(PathBuf::from("x.pgn")), false)));
    assert_eq!(
        read("-pgnout x.pgn min=yes").map_err(|e| e.to_string()),
        Err("-pgnout min: bad value 'yes'".into())
    );
    assert_eq!(read("-pgnout min=true"), Err(CliError::Missing("-pgnout FILE")));
    // cutechess-cli's `fi` (finished games only) is what arena writes anyway.
    assert_eq!(read("-pgnout x.pgn fi"), Ok((Some(PathBuf::from("x.pgn")), false)));
    assert_eq!(read("-pgnout x.pgn min fi"), min);
    assert_eq!(
        read("-pgnout x.pgn extra=1").map_err(|e| e.to_string()),
        Err("-pgnout: unknown setting 'extra'".into())
    );
}

#[test]
fn adjudication_flags() {
    use crate::adjudicate::{DrawRule, ResignRule};
    let two = "-engine cmd=a -engine cmd=b";
    let c = parse(&args(&format!(
        "{two} -draw movenumber=40 movecount=8 score=10 -resign movecount=3 score=900"
    )))
    .expect("cutechess's adjudication");
    assert_eq!(c.adjudication.draw, Some(DrawRule { move_number: 40, move_count: 8, score: 10 }));
    assert_eq!(c.adjudication.resign, Some(ResignRule { move_count: 3, score: 900, two_sided: false }));
    let c =
        parse(&args(&format!("{two} -resign movecount=3 score=900 twosided=true -draw movecount=2 score=0")));
    let c = c.expect("two-sided, and a draw from the first move");
    assert!(c.adjudication.resign.is_some_and(|r| r.two_sided));
    assert_eq!(c.adjudication.draw.map(|d| d.move_number), Some(0));
    assert_eq!(parse(&args(two)).map(|c| c.adjudication), Ok(Default::default()));
    let refusal = |extra: &str| parse(&args(&format!("{two} {extra}"))).err().map(|e| e.to_string());
    for (extra, message) in [
        // The message names what is missing, and only that.
        ("-draw movecount=2", "missing score= in -draw"),
        ("-draw score=2", "missing movecount= in -draw"),
        ("-resign score=5", "missing movecount= in -resign"),
        ("-resign movecount=5", "missing score= in -resign"),
        ("-draw movecount=0 score=5", "-draw movecount: bad value '0'"),
        ("-draw movecount=2 score=-5", "-draw score: bad value '-5'"),
        ("-resign movecount=2 score=5 twosided=yes", "-resign twosided: bad value 'yes'"),
        ("-resign movecount=2 score=5 moves=3", "-resign: unknown setting 'moves'"),
        ("-draw movecount=2 score=5 movenumber=x", "-draw movenumber: bad value 'x'"),
    ] {
        assert_eq!(refusal(extra).as_deref(), Some(message), "{extra}");
    }
    let four = "-engine cmd=a -engine cmd=b -engine cmd=c -engine cmd=d -variant players=4 walls=5";
    let refused = parse(&args(&format!("{four} -resign movecount=2 score=5"))).err().map(|e| e.to_string());
    assert_eq!(refused.as_deref(), Some("-draw and -resign adjudicate two-player games only"));
}

#[test]
fn tournaments_are_read() {
    let c = parse(&args("-engine cmd=a -engine cmd=b -engine cmd=c --tournament gauntlet")).unwrap();
    assert_eq!(c.tournament, Tournament::Gauntlet);
    let c = parse(&args("-engine cmd=a -engine cmd=b -engine cmd=c")).unwrap();
    assert_eq!(c.tournament, Tournament::RoundRobin);
    assert_eq!(
        parse(&args("-engine cmd=a -engine cmd=b -tournament pyramid")),
        Err(CliError::BadValue { what: "-tournament".into(), value: "pyramid".into() })
    );
    let four = "-engine cmd=a -engine cmd=b -engine cmd=c -engine cmd=d -variant players=4 walls=5";
    assert!(matches!(parse(&args(&format!("{four} -tournament gauntlet"))), Err(CliError::Conflict(_))));
    assert!(parse(&args(&format!("{four} -tournament round-robin"))).is_ok());
}

#[test]
fn race_adjudication_is_read() {
    let c = parse(&args("-engine cmd=a -engine cmd=b -adjudicate race")).unwrap();
    assert!(c.adjudication.race);
    let four = "-engine cmd=a -engine cmd=b -engine cmd=c -engine cmd=d -variant players=4 walls=5";
    assert!(matches!(parse(&args(&format!("{four} -adjudicate race"))), Err(CliError::Conflict(_))));
}

#[test]
fn openings_files_have_formats() {
    let read = |flags: &str| parse(&args(&format!("-engine cmd=a -engine cmd=b -openings {flags}")));
    let file =
        |format| OpeningSource::File { path: PathBuf::from("g.pgn"), random_order: false, format, start: 1 };
    assert_eq!(read("file=g.pgn").unwrap().openings, file(OpeningFormat::Lines));
    assert_eq!(read("file=g.pgn format=epd").unwrap().openings, file(OpeningFormat::Epd));
    assert_eq!(
        read("file=g.pgn format=pgn plies=6").unwrap().openings,
        file(OpeningFormat::Pgn { plies: 6 })
    );
    // As in cutechess-cli and fastchess, the whole game without plies=.
    assert_eq!(
        read("file=g.pgn format=pgn").unwrap().openings,
        file(OpeningFormat::Pgn { plies: usize::MAX })
    );
    assert!(matches!(read("file=g.pgn plies=3"), Err(CliError::Conflict(_))));
    assert!(matches!(read("file=g.pgn format=fen"), Err(CliError::BadValue { .. })));
    assert!(matches!(read("file=g.pgn format=pgn plies=x"), Err(CliError::BadValue { .. })));
}
