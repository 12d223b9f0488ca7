/** The codes `@tool-search/plugin-browser` raises (address refusals use `URL_NOT_ALLOWED` from `@tool-search/net-guard`). */
import { defineErrors } from '@tool-search/kernel/errors';

export const BrowserErrors = defineErrors('@tool-search/plugin-browser', {
  BROWSER_NOT_RUNNING: 'The profile\'s browser is not running; call the browser tool with action "start" first.',
  BROWSER_START_FAILED:
    'Chromium did not start or could not be attached (bad executable, profile folder not usable, unreachable cdpUrl).',
  BROWSER_PROFILE_INVALID: 'A profile name must be lowercase letters, digits and hyphens, at most 64 characters.',
  BROWSER_PROFILE_UNKNOWN: 'No profile has this name; action "profiles" lists them.',
  BROWSER_PROFILE_EXISTS: 'A profile with this name exists already.',
  BROWSER_PROFILE_PROTECTED:
    'This profile cannot be changed this way (the default profile, a profile from the config, or a remote attach-only profile).',
  BROWSER_TARGET_UNAVAILABLE:
    'The browser cannot run where `target` asks (`details.reason`): this host has no sandbox browser and no paired nodes; use target "host".',
  BROWSER_PORTS_EXHAUSTED: 'Every CDP port in 18800-18899 is taken by a profile.',
  BROWSER_TAB_UNKNOWN: 'No open tab has this targetId; action "tabs" lists them.',
  BROWSER_REF_UNKNOWN: 'The ref is not in the latest snapshot of the tab; take a new snapshot.',
  BROWSER_ACTION_FAILED:
    'The browser could not do the action (element not actionable, navigation error, page crashed).',
  BROWSER_TIMEOUT: 'The page did not answer in time (still loading, busy script, or an open dialog).',
  BROWSER_ARGUMENTS_INVALID: 'The action needs arguments it did not get, or got ones that do not fit together.',
  BROWSER_UPLOAD_PATH_INVALID: 'An upload path is missing or outside the workspace.',
  BROWSER_UPLOAD_TOO_LARGE:
    'The upload would hold more bytes of copies than the browser keeps (`details.maxBytes`, all copies of one browser together).',
});
