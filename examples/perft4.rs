use tabula::game::Game;
use tabula::games::quoridor::Quoridor;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let depth: u32 = args.get(1).and_then(|d| d.parse().ok()).unwrap_or(4);
    let mut p = Quoridor::from_text("quoridor 9x9 pawns=e1,e9 hand=10,10 walls=- turn=1").unwrap();
    for m in args.get(2).map(|s| s.split_whitespace().map(String::from).collect::<Vec<_>>()).unwrap_or_default() {
        let mv = p.parse_move(&m).unwrap();
        p.make_move(mv);
    }
    println!("{}", p.text());
    for d in 1..=depth {
        let t = std::time::Instant::now();
        let n = tabula::perft::perft(&p, d);
        let s = t.elapsed().as_secs_f64();
        println!("{d}: {n} in {s:.3}s = {:.1} M/s", n as f64 / s / 1e6);
    }
}
