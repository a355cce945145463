//! The outliner's filters, as plain data and pure functions: the words typed (every one must match, in either
//! name or as the index), the quick filters, and the tree rows left to show (a match's ancestors stay, dimmed).
//! The tabs draw them (`panels/outliner.rs` and the tab sections); nothing here knows egui.

/// A quick filter of the outliner: a property a joint (or morph, or body) must have to stay listed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Chip {
    /// The clip shown moves it: it has keys of more than one value.
    Keyed,
    /// IK moves it (a link of a chain), or it is a chain's goal or target.
    Ik,
    /// A rigid body that physics moves follows it.
    Physics,
    /// Some vertex weighs it.
    Weighted,
    /// A finding of `check` names it.
    Problem,
}

impl Chip {
    /// The quick filters of the Skeleton tab, in the order shown.
    pub const JOINT: [Chip; 5] = [Chip::Keyed, Chip::Ik, Chip::Physics, Chip::Weighted, Chip::Problem];
    /// The Morphs tab's.
    pub const MORPH: [Chip; 1] = [Chip::Keyed];
    /// The Physics tab's.
    pub const BODY: [Chip; 1] = [Chip::Physics];

    pub fn label(self) -> &'static str {
        match self {
            Chip::Keyed => "Keyed",
            Chip::Ik => "IK",
            Chip::Physics => "Physics",
            Chip::Weighted => "Weighted",
            Chip::Problem => "Problems",
        }
    }

    pub fn hint(self) -> &'static str {
        match self {
            Chip::Keyed => "Only what the clip shown moves (keys of more than one value)",
            Chip::Ik => "Only IK goals, targets and the joints IK turns",
            Chip::Physics => "Only what physics moves",
            Chip::Weighted => "Only joints some vertex weighs",
            Chip::Problem => "Only what a finding in Problems names",
        }
    }
}

/// One outliner tab's filter: the text typed and the quick filters on.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Filter {
    pub text: String,
    pub chips: Vec<Chip>,
}

impl Filter {
    pub fn is_active(&self) -> bool {
        !self.text.trim().is_empty() || !self.chips.is_empty()
    }

    pub fn has(&self, chip: Chip) -> bool {
        self.chips.contains(&chip)
    }

    /// Turns a quick filter on or off.
    pub fn flip(&mut self, chip: Chip) {
        match self.chips.iter().position(|&c| c == chip) {
            Some(i) => {
                self.chips.remove(i);
            }
            None => self.chips.push(chip),
        }
    }

    pub fn query(&self) -> Query {
        Query::new(&self.text)
    }
}

/// The words of a filter, lowercased: an item matches when every word is part of one of its names, or is its
/// index (`12` or `#12`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Query {
    words: Vec<String>,
}

impl Query {
    pub fn new(text: &str) -> Query {
        Query { words: text.split_whitespace().map(str::to_lowercase).collect() }
    }

    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    /// `lower`: the item's names, already lowercased ([`lower`]).
    pub fn matches(&self, lower: &[&str], index: usize) -> bool {
        self.words.iter().all(|w| {
            let digits = w.strip_prefix('#').unwrap_or(w);
            lower.iter().any(|n| n.contains(w.as_str())) || digits.parse::<usize>().is_ok_and(|n| n == index)
        })
    }
}

/// A name as the filter compares it. Unicode lowercase: Japanese names are unchanged, full-width Latin
/// letters (Ａ) fold like ASCII ones.
pub fn lower(name: &str) -> String {
    name.to_lowercase()
}

/// A row of a filtered tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TreeRow {
    pub item: usize,
    pub depth: usize,
    /// The filter matched it (drawn bold while a filter is on); `false`: it shows only as a match's ancestor.
    pub hit: bool,
    pub has_children: bool,
}

/// Items in tree order (each after its parent, siblings by index) with their depths. A parent that is out of
/// range, or not before its child, makes the child a root, so a malformed skeleton still lists every joint once.
pub fn tree_order(parents: &[Option<usize>]) -> Vec<(usize, usize)> {
    let n = parents.len();
    let parent = |i: usize| parents[i].filter(|&p| p < i);
    let mut children = vec![Vec::new(); n];
    let mut roots = Vec::new();
    for i in 0..n {
        match parent(i) {
            Some(p) => children[p].push(i),
            None => roots.push(i),
        }
    }
    let mut out = Vec::with_capacity(n);
    let mut stack: Vec<(usize, usize)> = roots.iter().rev().map(|&r| (r, 0)).collect();
    while let Some((i, d)) = stack.pop() {
        out.push((i, d));
        stack.extend(children[i].iter().rev().map(|&c| (c, d + 1)));
    }
    out
}

/// The rows to show of a tree in `order` ([`tree_order`]): with a filter on (`hit` given), the hits and their
/// ancestors, all open; without one, everything not under a `collapsed` item.
pub fn tree_rows(
    order: &[(usize, usize)],
    parents: &[Option<usize>],
    hit: Option<&[bool]>,
    collapsed: impl Fn(usize) -> bool,
) -> Vec<TreeRow> {
    let n = parents.len();
    let parent = |i: usize| parents[i].filter(|&p| p < i);
    let mut has_children = vec![false; n];
    for i in 0..n {
        if let Some(p) = parent(i) {
            has_children[p] = true;
        }
    }
    let row = |i: usize, depth: usize, hit: bool| TreeRow { item: i, depth, hit, has_children: has_children[i] };
    match hit {
        Some(hit) => {
            // A hit keeps its ancestors: mark them from each hit up, stopping at one already kept.
            let mut keep = vec![false; n];
            for i in (0..n).filter(|&i| hit.get(i).copied().unwrap_or(false)) {
                let mut at = Some(i);
                while let Some(j) = at {
                    if keep[j] && j != i {
                        break;
                    }
                    keep[j] = true;
                    at = parent(j);
                }
            }
            order.iter().filter(|(i, _)| keep[*i]).map(|&(i, d)| row(i, d, hit[i])).collect()
        }
        None => {
            let mut out = Vec::with_capacity(order.len());
            // Depth below which rows are hidden (under a collapsed item), if any.
            let mut hidden_below: Option<usize> = None;
            for &(i, d) in order {
                if let Some(h) = hidden_below {
                    if d > h {
                        continue;
                    }
                    hidden_below = None;
                }
                out.push(row(i, d, true));
                if has_children[i] && collapsed(i) {
                    hidden_below = Some(d);
                }
            }
            out
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_word_must_match_a_name_or_the_index() {
        let q = Query::new("  Arm  LEFT ");
        assert!(q.matches(&["左腕", "left arm"], 3));
        assert!(!q.matches(&["左腕", "left leg"], 3));
        // Words may match different names.
        assert!(Query::new("腕 left").matches(&["左腕", "left arm"], 3));
        assert!(Query::new("#3").matches(&["x"], 3));
        assert!(Query::new("3").matches(&["x"], 3));
        assert!(!Query::new("3").matches(&["x"], 13));
        assert!(Query::new("1").matches(&["bone1"], 7), "a number is also part of a name");
        assert!(Query::new("").matches(&[], 0));
        assert_eq!(lower("ＡＲＭ Arm"), "ａｒｍ arm");
    }

    #[test]
    fn trees_list_children_under_their_parent_whatever_the_indices() {
        // 0 ─ 1 ─ 3
        //   └ 2
        // 4 (parent after it: a root)
        let parents = [None, Some(0), Some(0), Some(1), Some(9)];
        let order = tree_order(&parents);
        assert_eq!(order, vec![(0, 0), (1, 1), (3, 2), (2, 1), (4, 0)]);
        let all = tree_rows(&order, &parents, None, |_| false);
        assert_eq!(all.iter().map(|r| r.item).collect::<Vec<_>>(), [0, 1, 3, 2, 4]);
        assert!(all[0].has_children && all[1].has_children && !all[2].has_children);
        let folded = tree_rows(&order, &parents, None, |i| i == 1);
        assert_eq!(folded.iter().map(|r| r.item).collect::<Vec<_>>(), [0, 1, 2, 4]);
    }

    #[test]
    fn a_filter_keeps_the_hits_and_their_ancestors_only() {
        let parents = [None, Some(0), Some(0), Some(1), None];
        let order = tree_order(&parents);
        let hit = [false, false, false, true, false];
        let rows = tree_rows(&order, &parents, Some(&hit), |_| true);
        let shown: Vec<(usize, bool)> = rows.iter().map(|r| (r.item, r.hit)).collect();
        assert_eq!(shown, [(0, false), (1, false), (3, true)], "collapse is ignored while filtering");
        let none = tree_rows(&order, &parents, Some(&[false; 5]), |_| false);
        assert!(none.is_empty());
    }

    #[test]
    fn chips_flip_on_and_off() {
        let mut f = Filter::default();
        assert!(!f.is_active());
        f.flip(Chip::Ik);
        assert!(f.is_active() && f.has(Chip::Ik));
        f.flip(Chip::Ik);
        assert!(!f.is_active());
        f.text = " a ".into();
        assert!(f.is_active());
    }
}
