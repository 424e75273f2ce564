#!/usr/bin/env node
// scripts/version.mjs: the project's one version, and every place that must repeat it.
//
// The version lives in the root Cargo.toml, `[workspace.package] version`. The crates of the root
// workspace (zarr-scale-offset, -core, -unpack, the PyO3 crate) inherit it (`version.workspace =
// true`), and maturin gives it to the Python package (python/pyproject.toml: dynamic version).
// The places that cannot inherit it are checked (and set) here:
//   * Cargo.toml: the root crate's requirement on zarr-scale-offset-core (`=X.Y.Z`)
//   * crates/zarrs/Cargo.toml (a workspace of its own): its version and its requirement on the
//     root crate (`=X.Y.Z`)
//   * Cargo.lock and crates/zarrs/Cargo.lock: the entries of this project's crates
//   * package.json and package-lock.json
//   * python/zarr_scale_offset/__init__.py: __version__
//   * CHANGELOG.md: the latest release heading `## [X.Y.Z] - YYYY-MM-DD` (after `## [Unreleased]`)
//     and its link
//
//   node scripts/version.mjs                 print the version
//   node scripts/version.mjs --check         exit 1 listing every place that differs
//   node scripts/version.mjs --check --tag v0.2.0
//                                            also: the git tag names this version (release.yml)
//   node scripts/version.mjs --set 0.2.0     write 0.2.0 everywhere; CHANGELOG.md's Unreleased
//                                            notes become the 0.2.0 section (dated today) under a
//                                            new empty Unreleased heading
//   --root DIR                               another tree (tests/js/version.test.mjs)
//
// Versions are plain X.Y.Z (the same text is valid semver for Cargo and npm and PEP 440 for
// PyPI; a pre-release suffix would be spelt differently by each).
import { readFileSync, writeFileSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const VERSION_RE = /^\d+\.\d+\.\d+$/;
const ROOT_CRATES = ["zarr-scale-offset", "zarr-scale-offset-core", "zarr-scale-offset-unpack", "zarr-scale-offset-python"];
const ZARRS_LOCK_CRATES = ["zarr-scale-offset", "zarr-scale-offset-core", "zarrs-scale-offset"];
const INHERITING = ["Cargo.toml", "crates/core/Cargo.toml", "crates/unpack/Cargo.toml", "python/Cargo.toml"];
const REPO_URL = "https://github.com/zarr-scale-offset/zarr-scale-offset";

// The lines of one TOML table (`[name]` up to the next table header), with their offsets.
function tomlTable(text, name) {
  const lines = text.split("\n");
  let off = 0;
  let inside = false;
  const out = [];
  for (const line of lines) {
    const header = /^\s*\[\[?([^\]]+)\]\]?\s*(#.*)?$/.exec(line);
    if (header) inside = header[1].trim() === name;
    else if (inside) out.push({ line, off });
    off += line.length + 1;
  }
  return out;
}

// Each place: { file, what, get(text) -> string | null, set(text, v) -> text }.
function tableKey(file, table, key, what = `[${table}] ${key}`) {
  const re = new RegExp(`^(\\s*${key.replace(/[.]/g, "\\.")}\\s*=\\s*")([^"]*)(")`);
  const find = (text) => tomlTable(text, table).find((l) => re.test(l.line));
  return {
    file,
    what,
    get(text) {
      const l = find(text);
      return l ? re.exec(l.line)[2] : null;
    },
    set(text, v) {
      const l = find(text);
      if (!l) return text;
      const line = l.line.replace(re, `$1${v}$3`);
      return text.slice(0, l.off) + line + text.slice(l.off + l.line.length);
    },
  };
}

// `name = { path = "...", version = "=X.Y.Z" }` in a [dependencies] table: the X.Y.Z.
function exactDep(file, dep) {
  const re = new RegExp(`^(${dep}\\s*=\\s*\\{[^}\\n]*\\bversion\\s*=\\s*"=)([^"]*)(")`, "m");
  return {
    file,
    what: `[dependencies] ${dep} version requirement "=X.Y.Z"`,
    get: (text) => re.exec(text)?.[2] ?? null,
    set: (text, v) => text.replace(re, `$1${v}$3`),
  };
}

// A path (no `source`) package entry of a Cargo.lock.
function lockEntry(file, name) {
  const re = new RegExp(`(\\[\\[package\\]\\]\\nname = "${name}"\\nversion = ")([^"]*)("\\n(?!source))`);
  return {
    file,
    what: `package ${name}`,
    get: (text) => re.exec(text)?.[2] ?? null,
    set: (text, v) => text.replace(re, `$1${v}$3`),
  };
}

function jsonKey(file, path) {
  return {
    file,
    what: path.join("."),
    get(text) {
      let o = JSON.parse(text);
      for (const k of path) o = o?.[k];
      return typeof o === "string" ? o : null;
    },
    set(text, v) {
      const j = JSON.parse(text);
      let o = j;
      for (const k of path.slice(0, -1)) o = o[k];
      o[path.at(-1)] = v;
      return JSON.stringify(j, null, 2) + "\n";
    },
  };
}

const PY_RE = /^(__version__\s*=\s*")([^"]*)(")/m;
// The first release heading after Unreleased, and its link reference at the bottom.
const CL_HEAD_RE = /^## \[(\d+\.\d+\.\d+)\] - \d{4}-\d{2}-\d{2}$/m;
function changelog(file) {
  return {
    file,
    what: "latest release heading `## [X.Y.Z] - YYYY-MM-DD` and its `[X.Y.Z]: ` link",
    get(text) {
      const unreleased = text.indexOf("\n## [Unreleased]\n");
      const m = CL_HEAD_RE.exec(text);
      if (unreleased < 0 || !m || m.index < unreleased) return null;
      if (!new RegExp(`^\\[${m[1].replace(/\./g, "\\.")}\\]: \\S+$`, "m").test(text)) return null;
      return m[1];
    },
    set(text, v) {
      if (this.get(text) === v) return text;
      const old = this.get(text);
      const today = new Date().toISOString().slice(0, 10);
      let t = text.replace("\n## [Unreleased]\n", `\n## [Unreleased]\n\n## [${v}] - ${today}\n`);
      t = t.replace(/^\[Unreleased\]: .*$/m, `[Unreleased]: ${REPO_URL}/compare/v${v}...HEAD`);
      const link = old
        ? `[${v}]: ${REPO_URL}/compare/v${old}...v${v}`
        : `[${v}]: ${REPO_URL}/releases/tag/v${v}`;
      return t.replace(/^(\[Unreleased\]: .*)$/m, `$1\n${link}`);
    },
  };
}

export function places() {
  return [
    exactDep("Cargo.toml", "zarr-scale-offset-core"),
    tableKey("crates/zarrs/Cargo.toml", "package", "version"),
    exactDep("crates/zarrs/Cargo.toml", "zarr-scale-offset"),
    ...ROOT_CRATES.map((n) => lockEntry("Cargo.lock", n)),
    ...ZARRS_LOCK_CRATES.map((n) => lockEntry("crates/zarrs/Cargo.lock", n)),
    jsonKey("package.json", ["version"]),
    jsonKey("package-lock.json", ["version"]),
    jsonKey("package-lock.json", ["packages", "", "version"]),
    {
      file: "python/zarr_scale_offset/__init__.py",
      what: "__version__",
      get: (text) => PY_RE.exec(text)?.[2] ?? null,
      set: (text, v) => text.replace(PY_RE, `$1${v}$3`),
    },
    changelog("CHANGELOG.md"),
  ];
}

const SOURCE = tableKey("Cargo.toml", "workspace.package", "version");

// Structural rules: the inheriting crates inherit, pyproject takes maturin's version.
function structure(read) {
  const errors = [];
  for (const f of INHERITING) {
    const pkg = tomlTable(read(f), "package").map((l) => l.line);
    if (!pkg.some((l) => /^version\.workspace\s*=\s*true\s*$/.test(l)))
      errors.push(`${f}: [package] must have \`version.workspace = true\``);
  }
  const project = tomlTable(read("python/pyproject.toml"), "project").map((l) => l.line);
  if (project.some((l) => /^version\s*=/.test(l)))
    errors.push("python/pyproject.toml: [project] must not set version (maturin takes it from Cargo.toml)");
  if (!project.some((l) => /^dynamic\s*=\s*\[[^\]]*"version"/.test(l)))
    errors.push('python/pyproject.toml: [project] must have dynamic = ["version"]');
  return errors;
}

export function check(root, tag) {
  const cache = new Map();
  const missing = [];
  const read = (f) => {
    if (!cache.has(f)) {
      try {
        cache.set(f, readFileSync(join(root, f), "utf8"));
      } catch (e) {
        if (e.code !== "ENOENT") throw e;
        missing.push(`${f}: missing`);
        cache.set(f, "");
      }
    }
    return cache.get(f);
  };
  const version = SOURCE.get(read(SOURCE.file));
  const errors = [];
  if (!version || !VERSION_RE.test(version)) {
    errors.push(`Cargo.toml: [workspace.package] version must be X.Y.Z (found ${JSON.stringify(version)})`);
    return { version, errors };
  }
  errors.push(...structure(read));
  for (const p of places()) {
    const found = p.get(read(p.file));
    if (found !== version) errors.push(`${p.file}: ${p.what} is ${found === null ? "missing" : found}, not ${version}`);
  }
  errors.unshift(...missing);
  if (tag !== undefined && tag !== `v${version}`) errors.push(`git tag ${tag} is not v${version}`);
  return { version, errors };
}

export function set(root, v) {
  if (!VERSION_RE.test(v)) throw new Error(`version must be X.Y.Z: ${v}`);
  const files = new Map();
  const text = (f) => files.get(f) ?? readFileSync(join(root, f), "utf8");
  for (const p of [SOURCE, ...places()]) files.set(p.file, p.set(text(p.file), v));
  for (const [f, t] of files) writeFileSync(join(root, f), t);
}

function main(argv) {
  let root = join(dirname(fileURLToPath(import.meta.url)), "..");
  let mode = "print";
  let value;
  let tag;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--check") mode = "check";
    else if (a === "--set") (mode = "set"), (value = argv[++i]);
    else if (a === "--tag") tag = argv[++i];
    else if (a === "--root") root = argv[++i];
    else {
      console.error(`version.mjs: unknown argument ${a}`);
      return 2;
    }
  }
  if (mode === "set") {
    set(root, value);
    mode = "check";
  }
  const { version, errors } = check(root, tag);
  if (mode === "print" && errors.length === 0) {
    console.log(version);
    return 0;
  }
  if (errors.length) {
    console.error(`version.mjs: ${errors.length} place(s) differ from the version in Cargo.toml (${version}):`);
    for (const e of errors) console.error(`  ${e}`);
    console.error("(node scripts/version.mjs --set X.Y.Z writes one version everywhere)");
    return 1;
  }
  console.log(`version ${version}: Cargo.toml, crates/zarrs, the lock files, package.json, the Python package and CHANGELOG.md agree${tag ? `, tag ${tag}` : ""}`);
  return 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) process.exitCode = main(process.argv.slice(2));
