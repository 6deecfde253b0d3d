-- Waits for the current buffer's diagnostics (from the language server the
-- README's init.lua started) and writes them to $NVIM_OUT, one a line:
-- line:col source code message.
vim.wait(20000, function() return #vim.diagnostic.get(0) > 0 end, 50)
local lines = {}
for _, d in ipairs(vim.diagnostic.get(0)) do
  local code = d.code
  if code == nil and d.user_data and d.user_data.lsp then code = d.user_data.lsp.code end
  table.insert(lines, string.format("%d:%d %s %s %s", d.lnum, d.col, d.source or "", tostring(code), d.message))
end
vim.fn.writefile(lines, os.getenv("NVIM_OUT"))
vim.cmd("qa!")
