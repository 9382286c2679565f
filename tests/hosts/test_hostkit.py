"""The real-host tests skip only when the npm registry cannot be reached, and say which packages they need."""

from __future__ import annotations

import pytest

import hostkit


def _fake_npm(tmp_path, monkeypatch, *, install_rc: int, view_rc: int):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    npm = bin_dir / "npm"
    npm.write_text(f'#!/bin/sh\ncase "$1" in install) exit {install_rc};; view) [ {view_rc} = 0 ] && echo 1.0.0; '
                   f'exit {view_rc};; esac\n', encoding="utf-8")
    npm.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}:/usr/bin:/bin")
    monkeypatch.setenv("CUTICLE_HOSTS_CACHE", str(tmp_path / "cache"))


def test_an_unreachable_registry_skips_naming_the_packages(tmp_path, monkeypatch):
    _fake_npm(tmp_path, monkeypatch, install_rc=1, view_rc=1)
    with pytest.raises(pytest.skip.Exception, match=r"npm registry cannot be reached.*node@24, openclaw@2026\.9\.6"):
        hostkit.npm_host("openclaw")


def test_an_install_that_fails_with_the_registry_reachable_is_a_failure_not_a_skip(tmp_path, monkeypatch):
    _fake_npm(tmp_path, monkeypatch, install_rc=1, view_rc=0)
    with pytest.raises(pytest.fail.Exception, match="npm install @openai/codex@0.171.0 failed"):
        hostkit.npm_host("codex")


def test_a_missing_npm_skips_naming_the_packages(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setenv("CUTICLE_HOSTS_CACHE", str(tmp_path / "cache"))
    with pytest.raises(pytest.skip.Exception, match="npm is not installed.*@anthropic-ai/claude-code@2.1.332"):
        hostkit.npm_host("claude")


def test_an_installed_host_is_reused_without_asking_npm(tmp_path, monkeypatch):
    _fake_npm(tmp_path, monkeypatch, install_rc=0, view_rc=0)
    folder = hostkit.npm_host("codex")
    (tmp_path / "bin" / "npm").unlink()  # no npm any more: the marked cache answers
    assert hostkit.npm_host("codex") == folder
