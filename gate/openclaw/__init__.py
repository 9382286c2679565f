"""The OpenClaw plugin (package.json, openclaw.plugin.json, index.js), shipped as package data of cuticle."""
