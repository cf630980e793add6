-- :MemoryIndexFixAll applies every safe fix of memory-index-lsp to the current buffer.
if vim.g.loaded_memory_index then
  return
end
vim.g.loaded_memory_index = true

vim.api.nvim_create_user_command('MemoryIndexFixAll', function()
  require('memory_index').fix_all(0)
end, { desc = 'memory-index-lsp: apply every safe fix to the current buffer' })
