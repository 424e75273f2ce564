//! The user guide's zarrs code (docs/guides/rust.md): each
//! ```` ```rs ```` block of the guide is, in order, a region of the example marked
//! `// ANCHOR: <name>` ... `// ANCHOR_END: <name>` (indentation removed); the example itself
//! runs as a test (`test = true` in Cargo.toml: its `#[test]` calls `main`). The guide's
//! ```` ```rust ```` blocks are doctests of the root crate (src/lib.rs includes the guide);
//! rustdoc skips ```` ```rs ```` blocks (not its language tag), which MkDocs still highlights as
//! Rust (a ```` ```rust,ignore ```` fence is not a code block to MkDocs' superfences).
#![allow(clippy::restriction)]

fn dedent(lines: &[&str]) -> String {
    let indent = lines
        .iter()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.len() - l.trim_start().len())
        .min()
        .unwrap_or(0);
    lines
        .iter()
        .map(|l| l.get(indent..).unwrap_or("").trim_end())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The example's marked regions, in order.
fn regions(example: &str) -> Vec<(String, String)> {
    let mut out = vec![];
    let mut open: Option<(String, Vec<&str>)> = None;
    for line in example.lines() {
        let t = line.trim();
        if let Some(name) = t.strip_prefix("// ANCHOR: ") {
            assert!(open.is_none(), "nested ANCHOR {name}");
            open = Some((name.to_string(), vec![]));
        } else if let Some(name) = t.strip_prefix("// ANCHOR_END: ") {
            let (n, lines) = open.take().expect("ANCHOR_END without ANCHOR");
            assert_eq!(n, name, "ANCHOR_END does not close its ANCHOR");
            out.push((n, dedent(&lines)));
        } else if let Some((_, lines)) = open.as_mut() {
            lines.push(line);
        }
    }
    assert!(open.is_none(), "an ANCHOR is not closed");
    out
}

/// The guide's ```` ```rs ```` blocks, in order.
fn ignore_blocks(guide: &str) -> Vec<String> {
    let mut out = vec![];
    let mut open: Option<Vec<&str>> = None;
    for line in guide.lines() {
        match open.as_mut() {
            None if line.trim() == "```rs" => open = Some(vec![]),
            Some(lines) if line.trim() == "```" => {
                out.push(dedent(lines));
                open = None;
            }
            Some(lines) => lines.push(line),
            None => {}
        }
    }
    out
}

#[test]
fn the_guides_blocks_are_the_example() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let guide = std::fs::read_to_string(dir.join("../../docs/guides/rust.md")).unwrap();
    let example = std::fs::read_to_string(dir.join("examples/guide.rs")).unwrap();
    assert!(
        !guide.contains("```rust,ignore"),
        "MkDocs does not render a rust,ignore fence: use rs"
    );
    let regions = regions(&example);
    let blocks = ignore_blocks(&guide);
    assert!(regions.len() >= 4, "{regions:?}");
    assert_eq!(
        blocks.len(),
        regions.len(),
        "the guide's rs blocks and the example's regions differ in number"
    );
    for ((name, region), block) in regions.iter().zip(&blocks) {
        assert_eq!(block, region, "the guide's block for region {name}");
    }
}
