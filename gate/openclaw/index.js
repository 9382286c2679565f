// cuticle for OpenClaw: forwards memory writes, shell calls, prompts and session events to `cuticle hook
// openclaw <hook>` and turns its answer into block / params / prompt context.
//
// Python is reached through api.runtime.system.runCommandWithTimeout (one process per call) or, when
// `endpoint` + `token` are configured, a running `cuticle serve` on loopback. This file deliberately spawns
// nothing itself and reads no environment variables, so OpenClaw's install-time scanner has nothing to flag.

// after_tool_call stamps what these wrote; before_tool_call also sees file_write (bytes to a paired node's path,
// checked as a whole-file write) and the tools that type into a shell (process, terminal), governed as commands
export const MEMORY_TOOLS = ["write", "edit", "apply_patch"];
export const WRITE_TOOLS = [...MEMORY_TOOLS, "file_write"];
export const GOVERNED_TOOLS = ["exec", "process", "terminal"];
const PRIORITY = 1000;
const TIMED_OUT = Symbol("timed out");
// OpenClaw fails a before_tool_call handler that overruns its time limit *closed* (the call is blocked with a hook
// failure), so cuticle's own limit must always expire first: this much before the host's limit, at least
const MARGIN_MS = 300;

function settings(api) {
  const c = (api && api.pluginConfig) || {};
  return {
    command: Array.isArray(c.command) && c.command.length ? c.command : ["cuticle"],
    workspace: typeof c.workspace === "string" ? c.workspace : undefined,
    endpoint: typeof c.endpoint === "string" ? c.endpoint.replace(/\/+$/, "") : undefined,
    token: typeof c.token === "string" ? c.token : undefined,
    mode: c.mode === "warn" ? "warn" : "enforce",
    timeoutMs: Number.isInteger(c.timeoutMs) ? c.timeoutMs : 4500,
    failClosed: c.failClosed === true,
    inject: ["prompt", "bootstrap", "off"].includes(c.inject) ? c.inject : "prompt",
  };
}

// The time limit OpenClaw applies to this plugin's `hook` (plugins.entries.cuticle.hooks.timeouts[hook], else
// .timeoutMs; the registration's own timeoutMs only when neither is set), or undefined.
export function hostTimeoutMs(api, hook) {
  const entry = api && api.config && api.config.plugins && api.config.plugins.entries && api.config.plugins.entries.cuticle;
  const h = (entry && entry.hooks) || {};
  const t = h.timeouts && Number.isInteger(h.timeouts[hook]) ? h.timeouts[hook] : h.timeoutMs;
  return Number.isInteger(t) && t > 0 ? t : undefined;
}

// How long one cuticle call may take: the configured timeoutMs, cut to end MARGIN_MS (or a tenth) before the host's.
export function budgetMs(api, cfg, hook) {
  const host = hostTimeoutMs(api, hook);
  if (host === undefined) return cfg.timeoutMs;
  return Math.max(50, Math.min(cfg.timeoutMs, host - Math.max(MARGIN_MS, Math.ceil(host / 10))));
}

export function createPlugin() {
  // workspaceDir is not in tool-hook contexts (hosts.md §1.12): remember it per session from hooks that have it
  const workspaceBySession = new Map();
  const contextBySession = new Map();

  function log(api, level, msg) {
    const l = api && api.logger;
    if (l && typeof l[level] === "function") l[level](`cuticle: ${msg}`);
  }

  function workspaceFor(api, cfg, ctx, event) {
    const sid = (ctx && (ctx.sessionId || ctx.sessionKey)) || (event && event.sessionId);
    const direct = (ctx && ctx.workspaceDir) || (event && event.workspaceDir);
    if (direct) {
      if (sid) workspaceBySession.set(sid, direct);
      return direct;
    }
    if (sid && workspaceBySession.has(sid)) return workspaceBySession.get(sid);
    if (cfg.workspace) return cfg.workspace;
    try {
      const r = api.runtime && api.runtime.agent && api.runtime.agent.resolveAgentWorkspaceDir;
      if (typeof r === "function") {
        const w = r(api.config, ctx && ctx.agentId);
        if (w) return w;
      }
    } catch (_e) {
      // fall through to the configured defaults
    }
    const agents = api.config && api.config.agents;
    return (agents && agents.defaults && agents.defaults.workspace) || undefined;
  }

  // Ask cuticle. Returns the parsed answer object, or null when cuticle could not answer in time (fail open).
  // The answer races a timer of its own, so a slow start (the first call of a session loads the gate) or a hung
  // process can never outlast the host's limit, whatever runCommandWithTimeout does about it.
  async function ask(api, cfg, hook, event, ctx) {
    const limit = budgetMs(api, cfg, hook);
    let timer;
    const late = new Promise((resolve) => {
      timer = setTimeout(() => resolve(TIMED_OUT), limit);
    });
    try {
      const out = await Promise.race([askOnce(api, { ...cfg, timeoutMs: limit }, hook, event, ctx), late]);
      if (out === TIMED_OUT) {
        log(api, "warn", `${hook}: no answer within ${limit} ms; ${cfg.failClosed ? "failing closed" : "letting the call proceed"}`);
        return null;
      }
      return out;
    } finally {
      clearTimeout(timer);
    }
  }

  async function askOnce(api, cfg, hook, event, ctx) {
    const cwd = workspaceFor(api, cfg, ctx, event);
    const body = JSON.stringify({ hook, event: event || {}, ctx: ctx || {}, workspaceDir: cwd });
    try {
      let stdout = "";
      if (cfg.endpoint && cfg.token) {
        const res = await fetch(`${cfg.endpoint}/hook/openclaw/${encodeURIComponent(hook)}`, {
          method: "POST",
          headers: { Authorization: `Bearer ${cfg.token}`, "Content-Type": "application/json" },
          body,
          signal: AbortSignal.timeout(cfg.timeoutMs),
        });
        if (!res.ok) throw new Error(`server answered HTTP ${res.status}`);
        const out = await res.json();
        if (out.stderr) log(api, "warn", String(out.stderr).trim());
        stdout = out.stdout || "";
      } else {
        const run = api.runtime && api.runtime.system && api.runtime.system.runCommandWithTimeout;
        if (typeof run !== "function") throw new Error("api.runtime.system.runCommandWithTimeout is unavailable");
        const argv = [...cfg.command, "hook", "openclaw", hook];
        const r = await run(argv, { timeoutMs: cfg.timeoutMs, input: body, cwd });
        if (r && r.stderr) log(api, "warn", String(r.stderr).trim());
        if (!r || r.killed || (r.code !== 0 && !r.stdout)) {
          throw new Error(`cuticle exited ${r ? r.code : "?"}${r && r.killed ? " (killed: timeout)" : ""}`);
        }
        stdout = r.stdout || "";
      }
      const text = String(stdout).trim();
      return text ? JSON.parse(text) : {};
    } catch (err) {
      log(api, "warn", `${hook}: ${err && err.message ? err.message : err}; ${cfg.failClosed ? "failing closed" : "letting the call proceed"}`);
      return null;
    }
  }

  async function beforeToolCall(api, event, ctx) {
    const cfg = settings(api);
    const tool = (event && event.toolName) || (ctx && ctx.toolName);
    if (![...WRITE_TOOLS, ...GOVERNED_TOOLS].includes(tool)) return undefined;
    const out = await ask(api, cfg, "before_tool_call", event, ctx);
    if (out === null) {
      if (cfg.failClosed && WRITE_TOOLS.includes(tool)) {
        return { block: true, blockReason: JSON.stringify({ kind: "cuticle.unavailable/v1", reason: "cuticle could not be reached and failClosed is set" }) };
      }
      return undefined;
    }
    if (out.block === true) {
      if (cfg.mode === "warn") {
        log(api, "warn", `would block ${tool}: ${out.blockReason}`);
        return undefined;
      }
      return { block: true, blockReason: String(out.blockReason || "blocked by cuticle") };
    }
    if (out.params && typeof out.params === "object") return { params: out.params };
    return undefined;
  }

  function register(api) {
    api.on("before_tool_call", (event, ctx) => beforeToolCall(api, event, ctx), {
      priority: PRIORITY,
      timeoutMs: settings(api).timeoutMs + 500,
      matcher: [...WRITE_TOOLS, ...GOVERNED_TOOLS],
    });
    api.on("after_tool_call", async (event, ctx) => {
      if (!MEMORY_TOOLS.includes(event && event.toolName)) return;
      await ask(api, settings(api), "after_tool_call", event, ctx);
    }, { matcher: MEMORY_TOOLS });
    api.on("llm_input", async (event, ctx) => {
      await ask(api, settings(api), "llm_input", event, ctx);
    });
    api.on("session_start", async (event, ctx) => {
      const sid = (event && event.sessionId) || (ctx && ctx.sessionId);
      if (sid) contextBySession.delete(sid);
      await ask(api, settings(api), "session_start", event, ctx);
    });
    for (const hook of ["session_end", "before_reset"]) {
      api.on(hook, async (event, ctx) => {
        await ask(api, settings(api), hook, event, ctx);
      });
    }
    api.on("before_prompt_build", async (event, ctx) => {
      const cfg = settings(api);
      if (cfg.inject !== "prompt") return undefined;
      const sid = (ctx && (ctx.sessionId || ctx.sessionKey)) || "default";
      if (!contextBySession.has(sid)) {
        const out = await ask(api, cfg, "before_prompt_build", event, ctx);
        contextBySession.set(sid, (out && out.prependSystemContext) || "");
      }
      const text = contextBySession.get(sid);
      return text ? { prependSystemContext: text } : undefined;
    });
    if (typeof api.registerHook === "function") {
      // `/new` ends the session as `/reset` does (Chitin queued a reflection for both): the session that ends is
      // the previous entry's; cuticle answers it as before_reset with reason "new"
      api.registerHook("command:new", async (event) => {
        const c = (event && event.context) || {};
        const prev = c.previousSessionEntry || {};
        const ctx = { sessionKey: event && event.sessionKey, sessionId: prev.sessionId, workspaceDir: c.workspaceDir };
        await ask(api, settings(api), "before_reset", { reason: "new" }, ctx);
      }, { name: "cuticle-new-session", description: "ends the session and queues a reflection on /new" });
      api.registerHook("agent:bootstrap", async (event) => {
        const cfg = settings(api);
        const context = event && event.context;
        if (cfg.inject !== "bootstrap" || !context || !Array.isArray(context.bootstrapFiles)) return;
        // the array is cached per session: never add a second entry (hosts.md §1.9)
        if (context.bootstrapFiles.some((f) => f && f.name === "PERSONALITY.md")) return;
        const out = await ask(api, cfg, "agent:bootstrap", context, context);
        const file = out && out.bootstrapFile;
        if (file && typeof file.path === "string" && file.path.trim()) context.bootstrapFiles.push(file);
      }, { name: "cuticle-personality", description: "adds the rendered PERSONALITY.md to the bootstrap files" });
    }
  }

  return { register, beforeToolCall, workspaceFor, ask, state: { workspaceBySession, contextBySession } };
}

const plugin = createPlugin();

export default {
  id: "cuticle",
  name: "cuticle",
  description: "Memory gate: tiers, stamps and arbitrates every memory write; governs exec",
  register: plugin.register,
};
