-- Opens a second and a third file after the first one's diagnostics came,
-- then writes to $NVIM_OUT, one a line: how many language servers run,
-- and for each buffer its omnifunc and whether K and gd are mapped.
vim.wait(20000, function() return #vim.diagnostic.get(0) > 0 end, 50)
vim.cmd("edit schemas/uppercase.input.json")
vim.cmd("edit README.md")
vim.wait(20000, function()
  for _, b in ipairs(vim.api.nvim_list_bufs()) do
    if #vim.lsp.buf_get_clients(b) == 0 then return false end
  end
  return true
end, 50)
vim.wait(500)
local lines = { "servers " .. #vim.lsp.get_active_clients() }
for _, b in ipairs(vim.api.nvim_list_bufs()) do
  local mapped = function(lhs)
    return vim.api.nvim_buf_call(b, function() return vim.fn.maparg(lhs, "n", false, true).buffer == 1 end)
  end
  table.insert(lines, string.format("%s omnifunc=%s K=%s gd=%s", vim.fn.fnamemodify(vim.api.nvim_buf_get_name(b), ":t"),
    vim.bo[b].omnifunc, tostring(mapped("K")), tostring(mapped("gd"))))
end
vim.fn.writefile(lines, os.getenv("NVIM_OUT"))
vim.cmd("qa!")
