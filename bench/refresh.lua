-- wrk script: refresh-token grants against a running identity-emulator.
-- Usage: REFRESH_TOKEN=... wrk -t1 -c32 -d10s -s bench/refresh.lua http://127.0.0.1:8400/organizations/oauth2/v2.0/token
local token = os.getenv("REFRESH_TOKEN")
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/x-www-form-urlencoded"
wrk.body = "client_id=9f1b8c3e-2d4a-4b6e-8f0a-1c2d3e4f5a6b&grant_type=refresh_token&client_info=1"
  .. "&scope=User.Read%20openid%20profile%20offline_access&refresh_token=" .. token

local failures = 0
function response(status, headers, body)
  if status ~= 200 then failures = failures + 1 end
end

function done(summary, latency, requests)
  io.write(string.format("non-200 answers: %d\n", failures))
end
