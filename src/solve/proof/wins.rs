//! "Can player X force a win from here?", answered exactly without valuing
//! every position. Within a layer (a wall set and the walls in hand) only
//! the pawns move, so every cycle of the game lies inside one layer; a wall
//! move leaves it for a layer with one wall more, which can never lead
//! back. So the question splits:
//!
//! - a wall move's answer is the answer in another, deeper layer, asked
//!   recursively (exact by induction on the walls still to come: the
//!   recursion ends because walls run out);
//! - inside a layer the answer is the least fixed point of "X to move: some
//!   move wins; the other to move: every move wins" over the positions the
//!   pawns reach, computed *locally*: depth-first from the position asked,
//!   best moves first, each position of the layer met once.
//!
//! The local search keeps, for each position of the layer it met, a state:
//! *won*, *lost* (not won, for good), or *waiting*. X's position turns won
//! at its first won move; the other player's positions try their moves in
//! order, stop at the first one not won yet and wait on it, go on with the
//! next when it turns won, and turn won after the last. Moves to a finished
//! game, to a deeper layer or to a position in the table have
//! proved answers; the others lead to positions of the layer, which are
//! searched first if new, and otherwise waited on. Why it is exact:
//!
//! 1. *Won is won.* A position turns won only on moves proved won before
//!    it (by time), so following those moves from it reaches X's goal in
//!    finitely many plies, whatever the other player does.
//! 2. *At the end, the rest is not won.* When nothing is left to do, each
//!    X position not won has every move into a position not won or into a
//!    proved non-win, and each of the other's has one such move (the one
//!    it waits on, or a proved non-win). So from any of them the other
//!    player can keep the game among them for ever or end it in a non-win
//!    for X: they lie outside the least fixed point, whatever cycles run
//!    through them (a draw or a loss for X). A cycle is thus never *scored*
//!    as anything: its positions wait on each other, and count as not won
//!    only once the whole layer's search has ended with nothing able to
//!    win them.
//! 3. *No result depends on the path.* Neither 1 nor 2 looks at the moves
//!    that led to the layer, so each result is the position's value for
//!    any history, and goes into the table (no graph-history interaction).
//!    When the position asked turns won early the search stops: what is
//!    won is kept, what is lost is kept, and what is still waiting is
//!    forgotten, never recorded as lost.
//!
//! "Forcing a win" counts a game that goes on for ever as no win, as the
//! retrograde methods do. A game ended by threefold repetition instead
//! has the same values: a forced win needs no repetition (play the moves
//! of 1, which never come back to a position), and a player who cannot
//! force a win cannot force one before a repetition either.

use super::rules::{Layout, Move, Pos};
use super::table::Verdict;
use super::ProofSearch;
use crate::solve::SolveError;
use std::rc::Rc;

/// No node, no link.
const NONE: u32 = u32::MAX;

/// Where a position of the layer stands in the local search.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum State {
    /// Met, not yet searched.
    New,
    /// Being searched (its moves are being tried).
    Open,
    /// Not won so far, waiting on another position of the layer.
    Waiting,
    /// Won for X.
    Won,
    /// Not won, whatever else the search finds (it rests only on proved
    /// answers).
    Lost,
}

/// A position of the layer in the local search.
struct Node {
    pos: Pos,
    key: u128,
    /// X is to move here (one winning move is enough).
    x_to_move: bool,
    state: State,
    /// X to move: some move waits on a position of the layer.
    depends: bool,
    /// Its moves, best first, in [`Local::moves`]: the first and how many.
    moves: (u32, u32),
    /// The next move to try.
    next: u32,
    /// The position of the layer the next move leads to, while it is
    /// searched first.
    pending: u32,
    /// The first of the positions waiting on this one, in [`Local::links`].
    waiters: u32,
}

/// One layer's local search (kept between searches to reuse memory).
#[derive(Default)]
pub(super) struct Local {
    layout: Option<Rc<Layout>>,
    /// Node number + 1 by pawn placement; 0 for none.
    index: Vec<u32>,
    nodes: Vec<Node>,
    moves: Vec<Move>,
    /// Waiting lists: (waiting node, next link).
    links: Vec<(u32, u32)>,
    /// Nodes to work on, the top first.
    stack: Vec<u32>,
    cascade: Vec<u32>,
}

/// What a move leads to.
enum Child {
    /// A position whose answer is proved (a wall move's, a finished game,
    /// one in the table).
    Known(bool),
    /// A position of the layer, by node number.
    Node(u32),
}

impl Local {
    fn clear(&mut self, placements: usize, shape_placement: impl Fn(&Pos) -> usize) {
        for node in &self.nodes {
            self.index[shape_placement(&node.pos)] = 0;
        }
        if self.index.len() != placements {
            self.index = vec![0; placements];
        }
        self.nodes.clear();
        self.moves.clear();
        self.links.clear();
        self.stack.clear();
        self.layout = None;
    }

    fn add(&mut self, pos: Pos, key: u128, placement: usize, x: usize) -> u32 {
        let n = self.nodes.len() as u32;
        self.index[placement] = n + 1;
        self.nodes.push(Node {
            pos,
            key,
            x_to_move: pos.side as usize == x,
            state: State::New,
            depends: false,
            moves: (0, 0),
            next: 0,
            pending: NONE,
            waiters: NONE,
        });
        n
    }

    /// `waiter` waits on `node`: told when it is won.
    fn wait_on(&mut self, node: u32, waiter: u32) {
        let link = self.links.len() as u32;
        self.links.push((waiter, self.nodes[node as usize].waiters));
        self.nodes[node as usize].waiters = link;
    }

    /// `node` is won: so is every X position waiting on it, and every
    /// position of the other player waiting on it goes on with its next
    /// move.
    fn set_won(&mut self, node: u32) {
        self.nodes[node as usize].state = State::Won;
        self.cascade.push(node);
        while let Some(won) = self.cascade.pop() {
            let mut link = self.nodes[won as usize].waiters;
            while link != NONE {
                let (waiter, next) = self.links[link as usize];
                link = next;
                let w = &mut self.nodes[waiter as usize];
                match w.state {
                    State::Open | State::Waiting if w.x_to_move => {
                        w.state = State::Won;
                        self.cascade.push(waiter);
                    }
                    State::Waiting => {
                        // It was stopped at this move: the next one.
                        w.next += 1;
                        w.state = State::Open;
                        self.stack.push(waiter);
                    }
                    _ => {}
                }
            }
        }
    }
}

impl ProofSearch<'_> {
    /// Whether `x` can force a win from `pos` (exact).
    pub(super) fn wins(&mut self, pos: &Pos, x: usize) -> Result<bool, SolveError> {
        let layout = self.layouts.get(&self.shape, pos.walls);
        let key = self.shape.key(pos, layout.mirrored);
        if let Some(known) = self.known_win(pos, &layout, key, x) {
            return Ok(known);
        }
        let mut local = self.locals.pop().unwrap_or_default();
        let result = self.search_layer(&mut local, pos, layout, key, x);
        self.locals.push(local);
        result
    }

    /// The answer when it is known without a search: a finished game, a
    /// step onto the goal, the table.
    fn known_win(&mut self, pos: &Pos, layout: &Layout, key: u128, x: usize) -> Option<bool> {
        let mover = pos.side as usize;
        if self.shape.on_goal(1 - mover, pos.pawns[1 - mover]) {
            // The game is over: the player who just moved won.
            return Some(x != mover);
        }
        if self.shape.wins_at_once(pos, layout) {
            return Some(mover == x);
        }
        match self.table.get(key).verdicts[x] {
            Verdict::Wins => Some(true),
            Verdict::Fails => Some(false),
            Verdict::Unknown => None,
        }
    }

    /// The local search of `pos`'s layer (see the module documentation);
    /// records what it proved.
    fn search_layer(
        &mut self,
        local: &mut Local,
        pos: &Pos,
        layout: Rc<Layout>,
        key: u128,
        x: usize,
    ) -> Result<bool, SolveError> {
        let shape = &self.shape;
        local.clear(shape.placements(), |p| shape.placement(p));
        local.layout = Some(layout);
        let nodes_before = self.nodes;
        let root = local.add(*pos, key, self.shape.placement(pos), x);
        local.stack.push(root);
        while let Some(node) = local.stack.pop() {
            self.advance(local, node, x)?;
            if local.nodes[root as usize].state == State::Won {
                break;
            }
        }
        let finished = local.stack.is_empty();
        let work = self.nodes - nodes_before;
        for node in &local.nodes {
            let verdict = match node.state {
                State::Won => Verdict::Wins,
                State::Lost => Verdict::Fails,
                _ if finished => Verdict::Fails,
                _ => continue,
            };
            self.table.set_verdict(node.key, x, verdict, work);
        }
        Ok(local.nodes[root as usize].state == State::Won)
    }

    /// Works on one node until it is decided, waits, or needs a position
    /// of the layer searched first (pushed above it).
    fn advance(&mut self, local: &mut Local, n: u32, x: usize) -> Result<(), SolveError> {
        let i = n as usize;
        let layout = local.layout.clone().expect("a layer being searched has its layout");
        match local.nodes[i].state {
            State::New => {
                self.count_node()?;
                let first = local.moves.len() as u32;
                let mut ordered = std::mem::take(&mut self.move_buffer);
                self.shape.ordered_moves(&local.nodes[i].pos, &layout, &mut ordered);
                local.moves.extend_from_slice(&ordered);
                self.move_buffer = ordered;
                let node = &mut local.nodes[i];
                node.moves = (first, local.moves.len() as u32 - first);
                node.state = State::Open;
            }
            State::Open => {}
            _ => return Ok(()),
        }
        loop {
            let node = &local.nodes[i];
            let (first, count) = node.moves;
            if node.next == count {
                match (node.x_to_move, node.depends) {
                    (true, true) => local.nodes[i].state = State::Waiting,
                    (true, false) => local.nodes[i].state = State::Lost,
                    (false, _) => local.set_won(n),
                }
                return Ok(());
            }
            let child = if node.pending != NONE {
                Child::Node(node.pending)
            } else {
                let (pos, mv) = (node.pos, local.moves[(first + node.next) as usize]);
                self.classify(local, &layout, &pos, mv, x)?
            };
            local.nodes[i].pending = NONE;
            let won = match child {
                Child::Known(won) => won,
                Child::Node(c) => match local.nodes[c as usize].state {
                    State::Won => true,
                    State::Lost => false,
                    State::New => {
                        // Search it first, then look again.
                        local.nodes[i].pending = c;
                        local.stack.push(n);
                        local.stack.push(c);
                        return Ok(());
                    }
                    State::Open | State::Waiting => {
                        local.wait_on(c, n);
                        let node = &mut local.nodes[i];
                        if !node.x_to_move {
                            node.state = State::Waiting;
                            return Ok(());
                        }
                        node.depends = true;
                        node.next += 1;
                        continue;
                    }
                },
            };
            let node = &mut local.nodes[i];
            match (node.x_to_move, won) {
                (true, true) => {
                    local.set_won(n);
                    return Ok(());
                }
                (false, false) => {
                    node.state = State::Lost;
                    return Ok(());
                }
                _ => node.next += 1,
            }
        }
    }

    /// What `mv` from `pos` leads to: a proved answer (a wall move is
    /// asked of its own layer at once), or a position of this layer.
    fn classify(
        &mut self,
        local: &mut Local,
        layout: &Layout,
        pos: &Pos,
        mv: Move,
        x: usize,
    ) -> Result<Child, SolveError> {
        let mover = pos.side as usize;
        if let Move::Step(square) = mv {
            if self.shape.on_goal(mover, square) {
                return Ok(Child::Known(mover == x));
            }
        }
        let (after, mirrored) = self.shape.play(pos, layout, mv);
        let key = self.shape.key(&after, mirrored);
        if let Move::Wall(_) = mv {
            return Ok(Child::Known(match self.table.get(key).verdicts[x] {
                Verdict::Wins => true,
                Verdict::Fails => false,
                Verdict::Unknown => self.wins(&after, x)?,
            }));
        }
        if let Some(known) = self.known_win(&after, layout, key, x) {
            return Ok(Child::Known(known));
        }
        let placement = self.shape.placement(&after);
        Ok(match local.index[placement] {
            0 => Child::Node(local.add(after, key, placement, x)),
            n => Child::Node(n - 1),
        })
    }
}
