-- End-to-end test of the Neovim plugin against a real memory-index-lsp.
--
--   SERVER=/path/to/memory-index-lsp nvim --headless --clean -l editors/neovim/test/e2e.lua WORKSPACE
--
-- WORKSPACE is a scratch copy of a workspace with agents/memory-index.md and
-- agents/decisions/*.md (run.sh makes one from fixtures/demo). The test edits
-- buffers but never writes files.
--
-- Environment:
--   SERVER          the server binary (default: memory-index-lsp on PATH)
--   MI_NVIM_CHECKS  comma-separated checks that must pass (default: all):
--                   diagnostics,unopened,completion,accept,quickfix,
--                   hover,definition,rename,fixall
--                   The others still run and are reported, but do not fail.
--                   The plugin and client start are always required.
--   MI_NVIM_TIMEOUT timeout per wait in milliseconds (default 15000)
--
-- Output goes to stdout (print() goes to stderr under -l), one line per
-- check, then "N passed, N failed, N skipped". Exit status 1 on a failure.

local out = function(...)
  io.stdout:write(table.concat({ ... }), '\n')
  io.stdout:flush()
end

local script = debug.getinfo(1, 'S').source:sub(2)
local plugin_root = vim.fs.dirname(vim.fs.dirname(vim.fn.fnamemodify(script, ':p')))
local workspace = arg[1] and vim.fs.normalize(vim.fn.fnamemodify(arg[1], ':p')) or nil
local server = os.getenv('SERVER')
if server == nil or server == '' then
  server = 'memory-index-lsp'
end
local timeout = tonumber(os.getenv('MI_NVIM_TIMEOUT') or '') or 15000

-- Keep lsp.log and shada out of the user's home.
if not os.getenv('XDG_STATE_HOME') then
  vim.env.XDG_STATE_HOME = vim.fn.tempname()
end
vim.o.shadafile = 'NONE'
vim.o.swapfile = false

local all_checks =
  { 'diagnostics', 'unopened', 'completion', 'accept', 'quickfix', 'hover', 'definition', 'rename', 'fixall' }
local required = {}
local spec = os.getenv('MI_NVIM_CHECKS')
if spec == nil or vim.trim(spec) == '' or vim.trim(spec) == 'all' then
  for _, c in ipairs(all_checks) do
    required[c] = true
  end
else
  for c in spec:gmatch('[^,%s]+') do
    if not vim.tbl_contains(all_checks, c) then
      out('FAIL setup: unknown check "', c, '" in MI_NVIM_CHECKS (known: ', table.concat(all_checks, ','), ')')
      os.exit(1)
    end
    required[c] = true
  end
end
-- The basics are always required.
required.plugin = true
required.start = true

local passed, failed, skipped = 0, 0, 0
local function report(name, ok, detail)
  detail = detail or ''
  if ok then
    passed = passed + 1
    out('PASS ', name, ': ', detail)
  elseif required[name] then
    failed = failed + 1
    out('FAIL ', name, ': ', detail)
  else
    skipped = skipped + 1
    out('SKIP ', name, ': ', detail, ' (not required by MI_NVIM_CHECKS)')
  end
end

--- Runs one check; a Lua error inside it is a failure of that check only.
---@param name string
---@param fn fun(): boolean, string
local function check(name, fn)
  local ok, res, detail = pcall(fn)
  if ok then
    report(name, res, detail)
  else
    report(name, false, 'Lua error: ' .. tostring(res))
  end
end

local client ---@type vim.lsp.Client?
local function finish()
  if client and not client:is_stopped() then
    client:stop()
    vim.wait(3000, function()
      return client:is_stopped()
    end, 50)
  end
  out(passed, ' passed, ', failed, ' failed, ', skipped, ' skipped')
  os.exit(failed > 0 and 1 or 0)
end

if not workspace or vim.fn.isdirectory(workspace) == 0 then
  out('FAIL setup: usage: nvim --headless --clean -l e2e.lua WORKSPACE (got ', tostring(arg[1]), ')')
  os.exit(1)
end
local index_path = vim.fs.joinpath(workspace, 'agents', 'memory-index.md')
local decisions_dir = vim.fs.joinpath(workspace, 'agents', 'decisions')
if vim.fn.filereadable(index_path) == 0 then
  out('FAIL setup: no ', index_path)
  os.exit(1)
end
out('workspace: ', workspace)
out('server: ', server, ' (', vim.fn.exepath(server) ~= '' and vim.fn.exepath(server) or 'not found', ')')
out('nvim: ', tostring(vim.version()))

-- 1. The plugin loads from 'runtimepath'.
vim.opt.runtimepath:prepend(plugin_root)
vim.cmd.runtime('plugin/memory_index.lua')
local ok_require, mi = pcall(require, 'memory_index')
if not ok_require then
  report('plugin', false, 'require("memory_index") failed: ' .. tostring(mi))
  finish()
end
local ok_setup, setup_err = pcall(mi.setup, { cmd = { server, 'serve' } })
local has_command = vim.fn.exists(':MemoryIndexFixAll') == 2
local root = mi.find_root(vim.fs.joinpath(decisions_dir, 'x.md'), { 'agents/memory-index.md', 'memory-index.toml' })
report(
  'plugin',
  ok_setup and has_command and root == workspace,
  ok_setup and ('setup() ok, :MemoryIndexFixAll ' .. (has_command and 'defined' or 'MISSING') .. ', root of a decision file: ' .. tostring(root))
    or ('setup() failed: ' .. tostring(setup_err))
)
if failed > 0 then
  finish()
end

-- 1b. A server that is not on PATH is said, once, where it would attach (not only in lsp.log).
do
  local said = {}
  local notify = vim.notify
  vim.notify = function(msg)
    table.insert(said, msg)
  end
  local cfg = mi.config({ cmd = { 'memory-index-lsp-not-installed', 'serve' } })
  local on_dir_called = false
  local probe = vim.fn.bufadd(index_path)
  cfg.root_dir(probe, function()
    on_dir_called = true
  end)
  cfg.root_dir(probe, function()
    on_dir_called = true
  end)
  vim.notify = notify
  report(
    'plugin',
    not on_dir_called and #said == 1 and said[1]:find('not an executable on PATH', 1, true) ~= nil,
    'missing server: ' .. (said[1] or 'nothing said') .. ' (' .. #said .. ' message(s))'
  )
  if failed > 0 then
    finish()
  end
end

-- 2. Opening the index starts and attaches the client.
vim.cmd.edit(vim.fn.fnameescape(index_path))
local buf = vim.api.nvim_get_current_buf()
if vim.bo[buf].filetype ~= 'markdown' then
  vim.bo[buf].filetype = 'markdown'
end
local attached = vim.wait(timeout, function()
  client = vim.lsp.get_clients({ bufnr = buf, name = mi.name })[1]
  return client ~= nil and client.initialized == true
end, 50)
if not attached then
  local log = vim.fs.joinpath(vim.fn.stdpath('log'), 'lsp.log')
  report('start', false, 'no initialized "' .. mi.name .. '" client on the index after ' .. timeout .. ' ms; see ' .. log)
  finish()
end
---@cast client vim.lsp.Client
report(
  'start',
  client.config.root_dir == workspace,
  ('client %d, root_dir %s, positionEncoding %s'):format(client.id, tostring(client.config.root_dir), client.offset_encoding)
)
local enc = client.offset_encoding
local caps = client.server_capabilities or {}

--- Sends a request on the index buffer; returns result, error text.
local function request(method, params)
  local resp, err = client:request_sync(method, params, timeout, buf)
  if not resp then
    return nil, 'no response: ' .. tostring(err)
  end
  if resp.err then
    return nil, 'error: ' .. (resp.err.message or vim.inspect(resp.err))
  end
  return resp.result, nil
end

local function position_params(row, col)
  return {
    textDocument = { uri = vim.uri_from_bufnr(buf) },
    position = { line = row, character = vim.str_utfindex(vim.api.nvim_buf_get_lines(buf, row, row + 1, true)[1], enc, col, false) },
  }
end

-- Index entries (0-based rows) inside sections, with the column of their trigger.
local entries = {}
do
  local in_section, in_fence = false, false
  for i, line in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, true)) do
    if line:match('^%s*```') or line:match('^%s*~~~') then
      in_fence = not in_fence
    elseif not in_fence and line:match('^##%s') then
      in_section = true
    elseif in_section and not in_fence then
      local op, sp, trigger = line:match('^(/[a-z]+)(%s+)([^|]*%S)')
      if (op == '/when' or op == '/how') and trigger then
        table.insert(entries, { row = i - 1, col = #op + #sp, text = line })
      end
    end
  end
end
out('entries found in the index: ', #entries)

-- 3. Diagnostics arrive (pushed or pulled) for the index.
check('diagnostics', function()
  local got = vim.wait(timeout, function()
    return #vim.diagnostic.get(buf) > 0
  end, 50)
  local diags = vim.diagnostic.get(buf)
  local codes = {}
  for _, d in ipairs(diags) do
    codes[tostring(d.code)] = true
  end
  return got,
    got and (#diags .. ' on the index, codes: ' .. table.concat(vim.tbl_keys(codes), ' ')) or ('none after ' .. timeout .. ' ms')
end)

-- 3b. Diagnostics of a decision file that was never opened arrive too (the
-- server pushes what a per-document puller will not pull), as
-- :lua vim.diagnostic.setqflist() would list them.
check('unopened', function()
  local ops = vim.fs.joinpath(decisions_dir, 'operations.md')
  local found
  local got = vim.wait(timeout, function()
    for _, d in ipairs(vim.diagnostic.get(nil)) do
      if vim.api.nvim_buf_get_name(d.bufnr) == ops and d.code == 'unindexed-heading' then
        found = d
        return true
      end
    end
    return false
  end, 50)
  return got and not vim.api.nvim_buf_is_loaded(found.bufnr),
    got and ('agents/decisions/operations.md:' .. (found.lnum + 1) .. ' ' .. found.code .. ', buffer not loaded')
      or ('no diagnostics for the unopened ' .. ops .. ' after ' .. timeout .. ' ms')
end)

--- Runs `fn(entry)` over the entries until it returns a truthy detail.
local function first_entry(fn)
  local last_err = 'no entries in the index'
  for _, e in ipairs(entries) do
    local detail, err = fn(e)
    if detail then
      return detail
    end
    last_err = err or last_err
  end
  return nil, last_err
end

-- 4. Hover on an entry shows content.
check('hover', function()
  local detail, err = first_entry(function(e)
    local result, rerr = request('textDocument/hover', position_params(e.row, e.col))
    if rerr then
      return nil, rerr
    end
    local contents = result and result.contents
    local text = type(contents) == 'table' and (contents.value or contents[1] and (contents[1].value or contents[1])) or contents
    if type(text) == 'string' and vim.trim(text) ~= '' then
      return ('line %d: %s ...'):format(e.row + 1, vim.trim(text):gsub('%s+', ' '):sub(1, 60))
    end
    return nil, 'empty hover'
  end)
  return detail ~= nil, detail or (err .. (caps.hoverProvider and '' or ' (server has no hoverProvider)'))
end)

-- 5. Go to definition from an entry lands in a decision file.
check('definition', function()
  local detail, err = first_entry(function(e)
    local result, rerr = request('textDocument/definition', position_params(e.row, e.col))
    if rerr then
      return nil, rerr
    end
    if result == nil or result == vim.NIL then
      return nil, 'no location'
    end
    local locs = (result.uri or result.targetUri) and { result } or result
    for _, l in ipairs(locs) do
      local uri = l.uri or l.targetUri
      local path = uri and vim.fs.normalize(vim.uri_to_fname(uri)) or ''
      if vim.startswith(path, decisions_dir .. '/') then
        local range = l.range or l.targetSelectionRange
        return ('line %d -> %s:%d'):format(e.row + 1, path:sub(#workspace + 2), range.start.line + 1)
      end
    end
    return nil, 'locations outside ' .. decisions_dir .. ': ' .. vim.inspect(locs)
  end)
  return detail ~= nil, detail or (err .. (caps.definitionProvider and '' or ' (server has no definitionProvider)'))
end)

-- 6. Rename of a trigger returns a workspace edit (not applied).
check('rename', function()
  local detail, err = first_entry(function(e)
    local params = position_params(e.row, e.col)
    params.newName = 'renamed by the neovim e2e test'
    local result, rerr = request('textDocument/rename', params)
    if rerr then
      return nil, rerr
    end
    if type(result) ~= 'table' then
      return nil, 'no workspace edit'
    end
    local files, edits = 0, 0
    for _, list in pairs(result.changes or {}) do
      files, edits = files + 1, edits + #list
    end
    for _, dc in ipairs(result.documentChanges or {}) do
      files, edits = files + 1, edits + #(dc.edits or {})
    end
    if edits > 0 then
      return ('line %d: %d edits in %d files'):format(e.row + 1, edits, files)
    end
    return nil, 'empty workspace edit'
  end)
  return detail ~= nil, detail or (err .. (caps.renameProvider and '' or ' (server has no renameProvider)'))
end)

-- 7. Completion after typing "/when " on a new line (last, as it edits the buffer).
check('completion', function()
  local row = vim.api.nvim_buf_line_count(buf)
  vim.api.nvim_buf_set_lines(buf, row, row, true, { '/when ' })
  local params = position_params(row, #'/when ')
  params.context = { triggerKind = 1 }
  local result, err = request('textDocument/completion', params)
  vim.api.nvim_buf_set_lines(buf, row, row + 1, true, {})
  local items = type(result) == 'table' and (result.items or result) or {}
  local labels = {}
  for i = 1, math.min(3, #items) do
    labels[#labels + 1] = items[i].label
  end
  return #items > 0,
    #items > 0 and (#items .. ' items, first: ' .. table.concat(labels, ' | '))
      or ((err or 'no items') .. (caps.completionProvider and '' or ' (server has no completionProvider)'))
end)

-- 7b. Accepting a multi-word trigger from the completion menu, with real
-- keys in a second (embedded) Neovim and its own completion
-- (vim.lsp.completion): the whole trigger lands in the buffer.
check('accept', function()
  local child = vim.fn.jobstart({ vim.v.progpath, '--embed', '--headless', '--clean', '-n' }, { rpc = true })
  if child <= 0 then
    return false, 'cannot start an embedded Neovim'
  end
  local function lua(code, ...)
    return vim.rpcrequest(child, 'nvim_exec_lua', code, { ... })
  end
  local ok, res, detail = pcall(function()
    lua([[
      local root, server, index = ...
      vim.opt.runtimepath:prepend(root)
      vim.cmd.runtime('plugin/memory_index.lua')
      require('memory_index').setup({ cmd = { server, 'serve' } })
      vim.cmd.edit(vim.fn.fnameescape(index))
      vim.o.completeopt = 'menuone,noselect'
    ]], plugin_root, server, index_path)
    local attached = vim.wait(timeout, function()
      return lua([[
        local c = vim.lsp.get_clients({ bufnr = 0 })[1]
        if c and c.initialized then
          vim.lsp.completion.enable(true, c.id, 0, { autotrigger = false })
          return true
        end
        return false
      ]])
    end, 100)
    if not attached then
      return false, 'no client in the embedded Neovim'
    end
    -- A new line in the section of the file with an unindexed multi-word heading.
    local row = lua([[
      local lines = vim.api.nvim_buf_get_lines(0, 0, -1, true)
      for i, l in ipairs(lines) do
        if l == '## agents/decisions/testing.md' then
          vim.api.nvim_buf_set_lines(0, i, i, true, { '/when testi' })
          vim.api.nvim_win_set_cursor(0, { i + 1, 0 })
          return i
        end
      end
    ]])
    if not row then
      return false, 'no testing.md section in the index'
    end
    vim.rpcrequest(child, 'nvim_input', 'A<C-x><C-o>')
    local items
    local shown = vim.wait(timeout, function()
      items = lua([[return vim.fn.pumvisible() == 1 and vim.fn.complete_info({ 'items' }).items or nil]])
      return items ~= nil and items ~= vim.NIL
    end, 50)
    if not shown then
      return false, 'no completion menu after /when testi'
    end
    local pick
    for i, it in ipairs(items) do
      if it.abbr == 'testing payment webhooks' then
        pick = i
      end
    end
    if not pick then
      return false, 'menu lacks "testing payment webhooks": ' .. vim.inspect(vim.tbl_map(function(i) return i.abbr end, items))
    end
    vim.rpcrequest(child, 'nvim_input', string.rep('<C-n>', pick) .. '<C-y><Esc>')
    local line
    local whole = vim.wait(timeout, function()
      line = lua('return vim.api.nvim_buf_get_lines(0, ..., ... + 1, true)[1]', row)
      return line == '/when testing payment webhooks'
    end, 50)
    local kind = items[pick].kind
    return whole and kind ~= 'Unknown',
      ('line after accepting: %q, kind %s'):format(line, kind)
  end)
  pcall(vim.fn.jobstop, child)
  if not ok then
    return false, 'Lua error: ' .. tostring(res)
  end
  return res, detail
end)

-- 7c. Quick fixes of an unindexed heading with the cursor at column 1 of its
-- line (outside the title the diagnostic underlines), through
-- vim.lsp.buf.code_action and vim.ui.select as a user would see them.
check('quickfix', function()
  local ops = vim.fs.joinpath(decisions_dir, 'operations.md')
  vim.cmd.edit(vim.fn.fnameescape(ops))
  local obuf = vim.api.nvim_get_current_buf()
  if vim.bo[obuf].filetype ~= 'markdown' then
    vim.bo[obuf].filetype = 'markdown'
  end
  -- The file was known (pushed) before it was opened: wait for the client to
  -- attach to its buffer, then for the diagnostic.
  vim.wait(timeout, function()
    return #vim.lsp.get_clients({ bufnr = obuf, name = mi.name }) > 0
  end, 50)
  local diag
  vim.wait(timeout, function()
    for _, d in ipairs(vim.diagnostic.get(obuf)) do
      if d.code == 'unindexed-heading' then
        diag = d
        return true
      end
    end
    return false
  end, 50)
  if not diag then
    vim.cmd.buffer(buf)
    return false, 'no unindexed-heading diagnostic in the opened ' .. ops
  end
  vim.api.nvim_win_set_cursor(0, { diag.lnum + 1, 0 })
  local titles
  local select = vim.ui.select
  vim.ui.select = function(items, opts, on_choice)
    titles = {}
    for _, it in ipairs(items) do
      titles[#titles + 1] = opts.format_item and opts.format_item(it) or tostring(it)
    end
    on_choice(nil)
  end
  vim.lsp.buf.code_action()
  vim.wait(timeout, function()
    return titles ~= nil
  end, 50)
  vim.ui.select = select
  vim.cmd.buffer(buf)
  local joined = table.concat(titles or {}, ' | ')
  local add = joined:find('to the index', 1, true) ~= nil
  local structural = joined:lower():find('structural', 1, true) ~= nil
  return add and structural, ('at %d:1: %s'):format(diag.lnum + 1, joined ~= '' and joined or 'no actions')
end)

-- 8. :MemoryIndexFixAll makes the server edit the buffer (workspace/applyEdit).
check('fixall', function()
  local before = vim.api.nvim_buf_get_lines(buf, 0, -1, true)
  local tick = vim.b[buf].changedtick
  vim.cmd('MemoryIndexFixAll')
  local changed = vim.wait(timeout, function()
    return vim.b[buf].changedtick ~= tick
  end, 50)
  local after = vim.api.nvim_buf_get_lines(buf, 0, -1, true)
  local hunks = vim.diff(table.concat(before, '\n') .. '\n', table.concat(after, '\n') .. '\n', { result_type = 'indices' })
  ---@cast hunks integer[][]
  return changed and #hunks > 0,
    changed and (#hunks .. ' changed hunks in the index') or ('the buffer did not change within ' .. timeout .. ' ms')
end)

finish()
