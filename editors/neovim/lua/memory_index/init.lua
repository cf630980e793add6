--- memory-index-lsp for Neovim 0.11+.
---
--- require('memory_index').setup({
---   cmd = { 'memory-index-lsp', 'serve' },   -- or a path string
---   settings = { index = 'agents/memory-index.md', decisions = 'agents/decisions',
---                ['max-lines'] = 400, rules = { ['file-too-long'] = 'off' } },
--- })
---
--- All features (diagnostics, completion, hover, go to definition, rename,
--- code actions, ...) come from the server through Neovim's LSP client.
local M = {}

--- Name of the server in vim.lsp.config / vim.lsp.enable / vim.lsp.get_clients.
M.name = 'memory_index'
--- The server's command that applies every safe fix (arguments: { document uri }).
M.fix_all_command = 'memory-index.fixAll'

local default_root_markers = { 'agents/memory-index.md', 'memory-index.toml' }

--- The workspace root of `path`: the nearest directory (the file's own first,
--- then its parents) that holds one of `markers`. A marker may be a relative
--- path such as 'agents/memory-index.md'; the root is then the directory the
--- path is relative to (vim.fs.root would return the marker's own directory).
---@param path string
---@param markers string[]
---@return string?
function M.find_root(path, markers)
  if path == '' then
    return nil
  end
  path = vim.fs.normalize(vim.fn.fnamemodify(path, ':p'))
  for dir in vim.fs.parents(path) do
    for _, marker in ipairs(markers) do
      if vim.uv.fs_stat(vim.fs.joinpath(dir, marker)) then
        return dir
      end
    end
  end
  return nil
end

--- The commands already said to be missing (once each per session).
local warned = {}

--- The config given to vim.lsp.config(M.name, ...).
---@param opts? table same as setup()
---@return vim.lsp.Config
function M.config(opts)
  opts = opts or {}
  vim.validate('cmd', opts.cmd, { 'string', 'table', 'function' }, true)
  vim.validate('settings', opts.settings, 'table', true)
  vim.validate('root_markers', opts.root_markers, 'table', true)
  local cmd = opts.cmd or { 'memory-index-lsp', 'serve' }
  if type(cmd) == 'string' then
    cmd = { cmd, 'serve' }
  end
  local markers = opts.root_markers or default_root_markers
  -- Keys of memory-index.toml: index, decisions, max-lines, rules. The
  -- project's memory-index.toml wins for the keys it sets.
  local settings = opts.settings
  local has_settings = settings ~= nil and next(settings) ~= nil
  local config = {
    cmd = cmd,
    filetypes = opts.filetypes or { 'markdown' },
    root_markers = markers,
    -- Attach only inside a memory-index workspace (no single-file mode).
    -- A server that cannot start is said once, where it would have attached
    -- (found by review: Neovim logged it in lsp.log only).
    root_dir = function(bufnr, on_dir)
      local root = M.find_root(vim.api.nvim_buf_get_name(bufnr), markers)
      if not root then
        return
      end
      if type(cmd) == 'table' and vim.fn.executable(cmd[1]) == 0 then
        if not warned[cmd[1]] then
          warned[cmd[1]] = true
          vim.notify(
            ("memory-index: `%s` is not an executable on PATH, so the language server cannot start for %s: "
              .. "install it (see the README) or pass its path, setup({ cmd = '/path/to/memory-index-lsp' })"):format(cmd[1], root),
            vim.log.levels.WARN
          )
        end
        return
      end
      on_dir(root)
    end,
    init_options = has_settings and settings or nil,
    -- Answers workspace/configuration for section `memoryIndex`.
    settings = has_settings and { memoryIndex = settings } or nil,
  }
  for _, key in ipairs({ 'on_attach', 'on_init', 'capabilities', 'cmd_env', 'handlers' }) do
    config[key] = opts[key]
  end
  return config
end

--- Registers the server with vim.lsp.config and enables it (unless opts.enable == false).
---@param opts? { cmd?: string|string[]|function, settings?: table, filetypes?: string[], root_markers?: string[], enable?: boolean, on_attach?: function, capabilities?: table }
function M.setup(opts)
  opts = opts or {}
  vim.lsp.config(M.name, M.config(opts))
  if opts.enable ~= false then
    vim.lsp.enable(M.name)
  end
end

--- Applies every safe fix to the document in `bufnr` (default: current buffer).
---@param bufnr? integer
function M.fix_all(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  local client = vim.lsp.get_clients({ bufnr = bufnr, name = M.name })[1]
  if not client then
    vim.notify('memory-index: no language server attached to this buffer', vim.log.levels.WARN)
    return
  end
  client:exec_cmd({
    title = 'Memory Index: Fix All',
    command = M.fix_all_command,
    arguments = { vim.uri_from_bufnr(bufnr) },
  }, { bufnr = bufnr }, function(err)
    if err then
      vim.notify('memory-index: fix all failed: ' .. (err.message or vim.inspect(err)), vim.log.levels.ERROR)
    end
  end)
end

return M
