//! The information-set tree: one node per sequence of the seat's own
//! actions, shared by every sampled state that reaches it. An action is
//! available at a node only in the states where it is legal, so each child
//! counts the playouts in which it could have been chosen (its
//! availability) and UCB1 weighs its visits against that count rather than
//! the parent's visits.

use skit_engine::MoveKind;

/// One action of the seat at a node.
#[derive(Clone, Copy, Debug)]
pub(super) struct Child {
    pub kind: MoveKind,
    pub visits: u32,
    /// Playouts in which this action was legal here.
    pub available: u32,
    pub total: f32,
    /// The node after this action, once the seat has decided there again.
    pub node: Option<usize>,
}

impl Child {
    fn ucb(&self, c: f32) -> f32 {
        if self.visits == 0 {
            return f32::INFINITY;
        }
        let v = self.visits as f32;
        let n = (self.available.max(1) as f32).ln();
        self.total / v + c * (n / v).sqrt()
    }
}

/// The seat's actions seen at one information set.
#[derive(Clone, Debug, Default)]
pub(super) struct Node {
    pub children: Vec<Child>,
}

/// All nodes; the root is node 0.
#[derive(Clone, Debug)]
pub(super) struct Tree {
    nodes: Vec<Node>,
}

impl Tree {
    pub(super) fn new() -> Tree {
        Tree {
            nodes: vec![Node::default()],
        }
    }

    /// Marks `kinds` available at `node`, adding those not seen there yet;
    /// returns the index of the child to try: an untried one first, else
    /// the highest upper bound among the available.
    pub(super) fn offer(&mut self, node: usize, kinds: &[MoveKind]) -> Option<usize> {
        let children = &mut self.nodes[node].children;
        let mut available = Vec::with_capacity(kinds.len());
        for kind in kinds {
            let i = match children.iter().position(|c| c.kind == *kind) {
                Some(i) => i,
                None => {
                    children.push(Child {
                        kind: *kind,
                        visits: 0,
                        available: 0,
                        total: 0.0,
                        node: None,
                    });
                    children.len() - 1
                }
            };
            children[i].available += 1;
            available.push(i);
        }
        available.into_iter().find(|&i| children[i].visits == 0)
    }

    /// The highest upper bound among `kinds` at `node` (all tried).
    pub(super) fn select(&self, node: usize, kinds: &[MoveKind], c: f32) -> Option<usize> {
        let children = &self.nodes[node].children;
        kinds
            .iter()
            .filter_map(|k| children.iter().position(|ch| ch.kind == *k))
            .max_by(|&a, &b| children[a].ucb(c).total_cmp(&children[b].ucb(c)))
    }

    pub(super) fn child(&self, node: usize, child: usize) -> &Child {
        &self.nodes[node].children[child]
    }

    /// The node under `child` of `node`, made if new.
    pub(super) fn descend(&mut self, node: usize, child: usize) -> usize {
        if let Some(next) = self.nodes[node].children[child].node {
            return next;
        }
        self.nodes.push(Node::default());
        let next = self.nodes.len() - 1;
        self.nodes[node].children[child].node = Some(next);
        next
    }

    /// Adds one playout's reward along `path` of (node, child).
    pub(super) fn record(&mut self, path: &[(usize, usize)], reward: f32) {
        for &(node, child) in path {
            let c = &mut self.nodes[node].children[child];
            c.visits += 1;
            c.total += reward;
        }
    }

    /// The root's most visited action (then the best total).
    pub(super) fn best(&self) -> Option<MoveKind> {
        self.nodes[0]
            .children
            .iter()
            .max_by(|a, b| {
                (a.visits, a.total)
                    .partial_cmp(&(b.visits, b.total))
                    .unwrap_or(std::cmp::Ordering::Equal)
            })
            .map(|c| c.kind)
    }
}
