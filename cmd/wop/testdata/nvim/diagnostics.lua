-- Starts `wop lsp` for the current buffer (vim.lsp.start_client: Neovim
-- 0.7 and later), waits for its diagnostics and writes them to $NVIM_OUT,
-- one a line: line:col source code message.
local id = vim.lsp.start_client({ name = "wop", cmd = { os.getenv("WOP_BIN"), "lsp" }, root_dir = vim.fn.getcwd() })
vim.lsp.buf_attach_client(0, id)
vim.wait(20000, function() return #vim.diagnostic.get(0) > 0 end, 50)
local lines = {}
for _, d in ipairs(vim.diagnostic.get(0)) do
  local code = d.code
  if code == nil and d.user_data and d.user_data.lsp then code = d.user_data.lsp.code end
  table.insert(lines, string.format("%d:%d %s %s %s", d.lnum, d.col, d.source or "", tostring(code), d.message))
end
vim.fn.writefile(lines, os.getenv("NVIM_OUT"))
vim.cmd("qa!")
