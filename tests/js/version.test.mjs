// One version for the npm package, the crates and the Python package (scripts/version.mjs): the
// repository agrees with itself, each place that repeats the version is caught when it differs,
// and --set writes one version everywhere (CHANGELOG.md's Unreleased notes become its section).
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { check, places, set } from "../../scripts/version.mjs";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "../..");
const SCRIPT = join(ROOT, "scripts/version.mjs");
const FILES = [
  ...new Set([
    ...places().map((p) => p.file),
    "Cargo.toml",
    "crates/core/Cargo.toml",
    "crates/unpack/Cargo.toml",
    "python/Cargo.toml",
    "python/pyproject.toml",
  ]),
];

function copy() {
  const dir = mkdtempSync(join(tmpdir(), "zso-version-"));
  for (const f of FILES) cpSync(join(ROOT, f), join(dir, f), { recursive: true });
  return dir;
}
const edit = (dir, f, fn) => writeFileSync(join(dir, f), fn(readFileSync(join(dir, f), "utf8")));

test("the repository has one version everywhere", () => {
  const { version, errors } = check(ROOT);
  assert.deepEqual(errors, []);
  assert.match(version, /^\d+\.\d+\.\d+$/);
  // The same through the command line, with the release tag the workflow passes.
  const out = execFileSync(process.execPath, [SCRIPT, "--check", "--tag", `v${version}`], { encoding: "utf8" });
  assert.match(out, new RegExp(`version ${version.replace(/\./g, "\\.")}: `));
  const bad = spawnSync(process.execPath, [SCRIPT, "--check", "--tag", "v0.0.0-not"], { encoding: "utf8" });
  assert.equal(bad.status, 1);
  assert.match(bad.stderr, /git tag v0\.0\.0-not is not v/);
});

test("each place that repeats the version is checked", () => {
  const dir = copy();
  try {
    const all = places();
    assert.equal(all.length, 15);
    for (const p of all) {
      const before = readFileSync(join(dir, p.file), "utf8");
      edit(dir, p.file, (t) => p.set(t, "9.9.9"));
      assert.notEqual(readFileSync(join(dir, p.file), "utf8"), before, `${p.file}: ${p.what} not set`);
      const { errors } = check(dir);
      assert.equal(errors.length, 1, `${p.file} ${p.what}: ${errors.join("; ")}`);
      assert.ok(errors[0].startsWith(`${p.file}: `), errors[0]);
      writeFileSync(join(dir, p.file), before);
    }
    assert.deepEqual(check(dir).errors, []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the crates inherit the version and pyproject takes it from maturin", () => {
  const dir = copy();
  try {
    edit(dir, "crates/core/Cargo.toml", (t) => t.replace("version.workspace = true", 'version = "0.1.0"'));
    edit(dir, "python/pyproject.toml", (t) => t.replace('dynamic = ["version"]', 'version = "0.1.0"'));
    edit(dir, "CHANGELOG.md", (t) => t.replace(/^\[\d+\.\d+\.\d+\]: .*\n/m, ""));
    const { errors } = check(dir);
    assert.deepEqual(
      errors.map((e) => e.split(":")[0]),
      ["crates/core/Cargo.toml", "python/pyproject.toml", "python/pyproject.toml", "CHANGELOG.md"],
      errors.join("\n"),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("--set writes one version everywhere and opens its CHANGELOG section", () => {
  const dir = copy();
  try {
    const old = check(dir).version;
    const unreleased = readFileSync(join(dir, "CHANGELOG.md"), "utf8").split("\n## [Unreleased]\n")[1].split("\n## [")[0];
    set(dir, "12.34.56");
    assert.deepEqual(check(dir).errors, []);
    assert.equal(check(dir).version, "12.34.56");
    const cl = readFileSync(join(dir, "CHANGELOG.md"), "utf8");
    const today = new Date().toISOString().slice(0, 10);
    // The notes that were Unreleased are the new release's; Unreleased is empty; links follow.
    assert.ok(cl.includes(`\n## [Unreleased]\n\n## [12.34.56] - ${today}\n${unreleased}\n## [${old}]`));
    assert.match(cl, /^\[Unreleased\]: \S+\/compare\/v12\.34\.56\.\.\.HEAD$/m);
    assert.match(cl, new RegExp(`^\\[12\\.34\\.56\\]: \\S+/compare/v${old.replace(/\./g, "\\.")}\\.\\.\\.v12\\.34\\.56$`, "m"));
    assert.match(readFileSync(join(dir, "crates/zarrs/Cargo.toml"), "utf8"), /zarr-scale-offset = \{ path = "\.\.\/\.\.", version = "=12\.34\.56" \}/);
    assert.equal(JSON.parse(readFileSync(join(dir, "package-lock.json"), "utf8")).packages[""].version, "12.34.56");
    // Setting the same version again changes nothing.
    const before = FILES.map((f) => readFileSync(join(dir, f), "utf8"));
    set(dir, "12.34.56");
    assert.deepEqual(FILES.map((f) => readFileSync(join(dir, f), "utf8")), before);
    assert.throws(() => set(dir, "1.2.3-rc.1"), /X\.Y\.Z/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
