-- wrk script: each request asks for a random user (of 100,000) in a random country, as headers,
-- so every request is evaluated for its own user. Usage:
--   wrk -t1 -c32 -d10s -s random-users.lua http://127.0.0.1:PORT/flags
-- Seeded per thread, so runs are comparable.
local countries = { "DE", "AT", "CH", "FR", "BE", "US", "GB", "JP", "BR" }

function setup(thread)
  thread:set("seed", 20261128)
end

function init(args)
  math.randomseed(seed)
end

function request()
  local headers = {
    ["X-User-ID"] = "user-" .. math.random(0, 99999),
    ["X-Country"] = countries[math.random(1, #countries)],
  }
  return wrk.format("GET", nil, headers, nil)
end
