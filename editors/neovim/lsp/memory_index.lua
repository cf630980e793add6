-- Default config picked up by vim.lsp.enable('memory_index') (Neovim 0.11+
-- reads lsp/<name>.lua from 'runtimepath'). require('memory_index').setup()
-- and vim.lsp.config('memory_index', {...}) override it.
return require('memory_index').config()
