// Tests of the OpenClaw plugin against a fake `api` (node --test gate/openclaw/test/).
// The fake runCommandWithTimeout runs the real `python -m gate` when CUTICLE_PYTHON is set (pytest sets it),
// so block and rewrite answers come from the real gate; the other tests script the answers.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

import plugin, { budgetMs, createPlugin, MEMORY_TOOLS } from "../index.js";

const HERE = dirname(fileURLToPath(import.meta.url));
const PYTHON = process.env.CUTICLE_PYTHON;

function fakeApi({ answer, config = {}, runner } = {}) {
  const calls = { on: [], hooks: [], runs: [], logs: [] };
  const api = {
    pluginConfig: config,
    config: { agents: { defaults: { workspace: "/nonexistent-default" } } },
    logger: { warn: (m) => calls.logs.push(m), info: () => {}, error: (m) => calls.logs.push(m) },
    on: (name, fn, opts) => calls.on.push({ name, fn, opts }),
    registerHook: (events, fn, opts) => calls.hooks.push({ events, fn, opts }),
    runtime: {
      system: {
        runCommandWithTimeout: runner || (async (argv, opts) => {
          calls.runs.push({ argv, opts, input: JSON.parse(opts.input) });
          const a = typeof answer === "function" ? answer(argv, opts) : answer;
          if (a instanceof Error) throw a;
          return { stdout: a === undefined ? "{}" : JSON.stringify(a), stderr: "", code: 0, signal: null, killed: false };
        }),
      },
    },
  };
  return { api, calls };
}

function handler(calls, name) {
  const h = calls.on.find((c) => c.name === name);
  assert.ok(h, `no handler for ${name}`);
  return h.fn;
}

test("default export is a plugin entry with id cuticle", () => {
  assert.equal(plugin.id, "cuticle");
  assert.equal(typeof plugin.register, "function");
});

test("registers before_tool_call for the writing tools and the shell tools with a high priority", () => {
  const { api, calls } = fakeApi();
  createPlugin().register(api);
  const names = calls.on.map((c) => c.name).sort();
  for (const n of ["before_tool_call", "after_tool_call", "llm_input", "session_start", "session_end", "before_prompt_build"]) {
    assert.ok(names.includes(n), `missing ${n}`);
  }
  const btc = calls.on.find((c) => c.name === "before_tool_call");
  assert.deepEqual(btc.opts.matcher, ["write", "edit", "apply_patch", "file_write", "exec", "process", "terminal"]);
  const atc = calls.on.find((c) => c.name === "after_tool_call");
  assert.deepEqual(atc.opts.matcher, ["write", "edit", "apply_patch"]);
  assert.ok(btc.opts.priority >= 100);
  assert.ok(calls.hooks.some((h) => h.events === "agent:bootstrap"));
});

test("a block answer becomes block + blockReason", async () => {
  const reason = JSON.stringify({ kind: "cuticle.block/v1", reason: "conflict" });
  const { api, calls } = fakeApi({ answer: { block: true, blockReason: reason } });
  createPlugin().register(api);
  const out = await handler(calls, "before_tool_call")({ toolName: "write", params: { path: "MEMORY.md", content: "x" } }, { sessionId: "s" });
  assert.deepEqual(out, { block: true, blockReason: reason });
  assert.deepEqual(calls.runs[0].argv, ["cuticle", "hook", "openclaw", "before_tool_call"]);
  assert.equal(calls.runs[0].input.hook, "before_tool_call");
});

test("a params answer rewrites the tool arguments", async () => {
  const { api, calls } = fakeApi({ answer: { params: { path: "MEMORY.md", content: "- a <!--cu:H…-->\n" } } });
  createPlugin().register(api);
  const out = await handler(calls, "before_tool_call")({ toolName: "write", params: { path: "MEMORY.md", content: "- a\n" } }, {});
  assert.deepEqual(out, { params: { path: "MEMORY.md", content: "- a <!--cu:H…-->\n" } });
});

test("tools other than memory writes and exec are not sent to cuticle", async () => {
  const { api, calls } = fakeApi({ answer: { block: true } });
  createPlugin().register(api);
  const out = await handler(calls, "before_tool_call")({ toolName: "read", params: { path: "MEMORY.md" } }, {});
  assert.equal(out, undefined);
  assert.equal(calls.runs.length, 0);
});

test("fails open when the command throws, times out or prints garbage", async () => {
  for (const answer of [new Error("spawn ENOENT"), () => ({})]) {
    const { api, calls } = fakeApi({ answer });
    createPlugin().register(api);
    const out = await handler(calls, "before_tool_call")({ toolName: "write", params: {} }, {});
    assert.equal(out, undefined);
  }
  const killed = fakeApi({ runner: async () => ({ stdout: "", stderr: "", code: null, killed: true }) });
  createPlugin().register(killed.api);
  assert.equal(await handler(killed.calls, "before_tool_call")({ toolName: "edit", params: {} }, {}), undefined);
  assert.ok(killed.calls.logs.some((m) => m.includes("timeout")));
  const garbage = fakeApi({ runner: async () => ({ stdout: "not json", stderr: "", code: 0, killed: false }) });
  createPlugin().register(garbage.api);
  assert.equal(await handler(garbage.calls, "before_tool_call")({ toolName: "edit", params: {} }, {}), undefined);
});

test("a cuticle that never answers is cut off by the plugin's own limit, before the host's", async () => {
  // OpenClaw blocks a before_tool_call whose handler overruns the host's limit (fail-closed): the plugin must answer
  // first even when runCommandWithTimeout itself hangs (a cold first call, a stuck process)
  const hostLimit = 600;
  const { api, calls } = fakeApi({ runner: () => new Promise(() => {}) });
  api.config.plugins = { entries: { cuticle: { hooks: { timeoutMs: hostLimit } } } };
  createPlugin().register(api);
  const t0 = Date.now();
  const out = await handler(calls, "before_tool_call")({ toolName: "write", params: { path: "MEMORY.md", content: "x" } }, {});
  const took = Date.now() - t0;
  assert.equal(out, undefined);
  assert.ok(took < hostLimit - 100, `answered after ${took} ms, host limit ${hostLimit} ms`);
  assert.ok(calls.logs.some((m) => /no answer within \d+ ms; letting the call proceed/.test(m)), calls.logs.join("\n"));
});

test("the plugin's limit follows the host's per-hook limit, then its default, then its own setting", () => {
  const api = (hooks) => ({ config: { plugins: { entries: { cuticle: { hooks } } } } });
  assert.equal(budgetMs(api({ timeoutMs: 5000 }), { timeoutMs: 4500 }, "before_tool_call"), 4500);
  assert.equal(budgetMs(api({ timeoutMs: 2000 }), { timeoutMs: 4500 }, "before_tool_call"), 1700);
  assert.equal(budgetMs(api({ timeoutMs: 60000, timeouts: { before_tool_call: 1000 } }), { timeoutMs: 4500 }, "before_tool_call"), 700);
  assert.equal(budgetMs({ config: {} }, { timeoutMs: 4500 }, "before_tool_call"), 4500);
  assert.ok(budgetMs(api({ timeoutMs: 20 }), { timeoutMs: 4500 }, "before_tool_call") >= 50);
});

test("file_write, process and terminal calls are sent to cuticle; after_tool_call forwards the blocked signal", async () => {
  const { api, calls } = fakeApi({ answer: {} });
  createPlugin().register(api);
  for (const toolName of ["file_write", "process", "terminal"]) {
    await handler(calls, "before_tool_call")({ toolName, params: {} }, {});
  }
  assert.deepEqual(calls.runs.map((r) => r.input.event.toolName), ["file_write", "process", "terminal"]);
  await handler(calls, "after_tool_call")({ toolName: "write", params: { path: "MEMORY.md", content: "x" }, error: "blocked" }, {});
  assert.equal(calls.runs.at(-1).input.event.error, "blocked");
});

test("failClosed blocks memory writes when cuticle is unreachable", async () => {
  const { api, calls } = fakeApi({ answer: new Error("gone"), config: { failClosed: true } });
  createPlugin().register(api);
  const out = await handler(calls, "before_tool_call")({ toolName: "write", params: {} }, {});
  assert.equal(out.block, true);
  assert.match(out.blockReason, /cuticle\.unavailable/);
});

test("warn mode logs a block instead of enforcing it", async () => {
  const { api, calls } = fakeApi({ answer: { block: true, blockReason: "r" }, config: { mode: "warn" } });
  createPlugin().register(api);
  assert.equal(await handler(calls, "before_tool_call")({ toolName: "write", params: {} }, {}), undefined);
  assert.ok(calls.logs.some((m) => m.includes("would block")));
});

test("the workspace learned from llm_input is used for later tool calls of the session", async () => {
  const { api, calls } = fakeApi({ answer: {} });
  createPlugin().register(api);
  await handler(calls, "llm_input")({ prompt: "hi", sessionId: "s1" }, { sessionId: "s1", workspaceDir: "/w/one" });
  await handler(calls, "before_tool_call")({ toolName: "write", params: {} }, { sessionId: "s1" });
  assert.equal(calls.runs[1].opts.cwd, "/w/one");
  assert.equal(calls.runs[1].input.workspaceDir, "/w/one");
});

test("before_prompt_build injects PERSONALITY.md once per session as system context", async () => {
  const { api, calls } = fakeApi({ answer: { prependSystemContext: "# PERSONALITY" } });
  createPlugin().register(api);
  const h = handler(calls, "before_prompt_build");
  assert.deepEqual(await h({ prompt: "p" }, { sessionId: "s" }), { prependSystemContext: "# PERSONALITY" });
  assert.deepEqual(await h({ prompt: "p2" }, { sessionId: "s" }), { prependSystemContext: "# PERSONALITY" });
  assert.equal(calls.runs.length, 1);
});

test("agent:bootstrap adds PERSONALITY.md once and never twice", async () => {
  const file = { name: "PERSONALITY.md", path: "/w/PERSONALITY.md", content: "x", missing: false };
  const { api, calls } = fakeApi({ answer: { bootstrapFile: file }, config: { inject: "bootstrap" } });
  createPlugin().register(api);
  const hook = calls.hooks.find((h) => h.events === "agent:bootstrap").fn;
  const ev = { type: "agent", action: "bootstrap", context: { workspaceDir: "/w", bootstrapFiles: [] } };
  await hook(ev);
  await hook(ev);
  assert.equal(ev.context.bootstrapFiles.length, 1);
  assert.equal(ev.context.bootstrapFiles[0].name, "PERSONALITY.md");
});

test("a configured endpoint is called with the token instead of spawning", async () => {
  const seen = [];
  const realFetch = globalThis.fetch;
  globalThis.fetch = async (url, init) => {
    seen.push({ url, init });
    return { ok: true, json: async () => ({ stdout: JSON.stringify({ block: true, blockReason: "r" }), stderr: "", exit_code: 0 }) };
  };
  try {
    const { api, calls } = fakeApi({ config: { endpoint: "http://127.0.0.1:9/", token: "t0k" } });
    createPlugin().register(api);
    const out = await handler(calls, "before_tool_call")({ toolName: "write", params: {} }, {});
    assert.deepEqual(out, { block: true, blockReason: "r" });
    assert.equal(seen[0].url, "http://127.0.0.1:9/hook/openclaw/before_tool_call");
    assert.equal(seen[0].init.headers.Authorization, "Bearer t0k");
    assert.equal(calls.runs.length, 0);
  } finally {
    globalThis.fetch = realFetch;
  }
});

test("the entry module passes OpenClaw's install scanner rules", () => {
  const src = readFileSync(join(HERE, "..", "index.js"), "utf8");
  assert.ok(!src.includes("child_process"), "mentions child_process (dangerous-exec rule)");
  assert.ok(!src.includes("process.env"), "reads process.env next to fetch (env-harvesting rule)");
  const manifest = JSON.parse(readFileSync(join(HERE, "..", "openclaw.plugin.json"), "utf8"));
  assert.equal(manifest.id, "cuticle");
  assert.ok(manifest.configSchema);
  const pkg = JSON.parse(readFileSync(join(HERE, "..", "package.json"), "utf8"));
  assert.deepEqual(pkg.openclaw.extensions, ["./index.js"]);
});

// -- against the real gate ------------------------------------------------------------------------------

function realRunner(calls) {
  return async (argv, opts) => {
    const [, ...rest] = argv;
    const r = spawnSync(PYTHON, ["-m", "gate", ...rest.slice(0)], { input: opts.input, cwd: opts.cwd, encoding: "utf8", timeout: 60000 });
    calls.push({ argv, stdout: r.stdout, stderr: r.stderr, code: r.status });
    return { stdout: r.stdout, stderr: r.stderr, code: r.status, signal: r.signal, killed: false };
  };
}

function tempWorkspace() {
  const dir = mkdtempSync(join(tmpdir(), "cuticle-oc-"));
  mkdirSync(join(dir, ".cuticle"));
  // installed, as `cuticle init` leaves it: a key and a config (a bare .cuticle/ protects nothing)
  writeFileSync(join(dir, ".cuticle", "key"), "5a".repeat(32) + "\n");
  writeFileSync(join(dir, ".cuticle", "config.toml"), "");
  writeFileSync(join(dir, "MEMORY.md"), "# Memory\n\n- Tests ran green on CI.\n");
  return dir;
}

test("real gate: a write to PERSONALITY.md is blocked with a JSON reason", { skip: !PYTHON && "CUTICLE_PYTHON not set" }, async () => {
  const ws = tempWorkspace();
  try {
    const runs = [];
    const { api, calls } = fakeApi({ runner: realRunner(runs), config: { command: ["cuticle"], workspace: ws } });
    createPlugin().register(api);
    const out = await handler(calls, "before_tool_call")({ toolName: "write", params: { path: "PERSONALITY.md", content: "- me\n" } }, { sessionId: "s" });
    assert.equal(out.block, true, JSON.stringify(runs));
    assert.equal(JSON.parse(out.blockReason).reason, "guarded-file");
  } finally {
    rmSync(ws, { recursive: true, force: true });
  }
});

test("real gate: an accepted memory write comes back with stamped params", { skip: !PYTHON && "CUTICLE_PYTHON not set" }, async () => {
  const ws = tempWorkspace();
  try {
    const runs = [];
    const { api, calls } = fakeApi({ runner: realRunner(runs), config: { workspace: ws } });
    createPlugin().register(api);
    const content = "# Memory\n\n- Tests ran green on CI.\n- Maybe the cache is stale.\n";
    const out = await handler(calls, "before_tool_call")({ toolName: "write", params: { path: "MEMORY.md", content } }, { sessionId: "s" });
    assert.ok(out && out.params, JSON.stringify(runs));
    const lines = out.params.content.split("\n");
    assert.equal(lines[2], "- Tests ran green on CI.");
    assert.match(lines[3], /^- Maybe the cache is stale\. <!--cu:H/);
  } finally {
    rmSync(ws, { recursive: true, force: true });
  }
});

test("command:new ends the previous session as before_reset with reason new", async () => {
  const { api, calls } = fakeApi({ answer: {} });
  createPlugin().register(api);
  const hook = calls.hooks.find((h) => h.events === "command:new");
  assert.ok(hook, "no command:new hook");
  await hook.fn({ type: "command", action: "new", sessionKey: "agent:main:main", messages: [],
    context: { workspaceDir: "/ws", previousSessionEntry: { sessionId: "old-1" } } });
  assert.equal(calls.runs.length, 1);
  const { argv, input } = calls.runs[0];
  assert.deepEqual(argv.slice(-3), ["hook", "openclaw", "before_reset"]);
  assert.equal(input.event.reason, "new");
  assert.equal(input.ctx.sessionId, "old-1");
  assert.equal(input.workspaceDir, "/ws");
});
