// The token corpus's data of text to parse and sequences (issue 35): log lines
// written key=value, CSV held in a field, JSON files a filesystem tool reads,
// prices written the European way, numeric ids to label, sign-ups with days
// missing, invoices with months missing, a ticket list with numbers missing.
// A seeded generator of its own, so the shop's data stays as it was.
"use strict";
const { generator, isoAt } = require("../../examples/agent-tasks/data.cjs");

function addTextData(data) {
  const random = generator(35);
  const int = (lo, hi) => lo + Math.floor(random() * (hi - lo + 1));
  const pick = (list) => list[Math.floor(random() * list.length)];
  const t0 = Date.UTC(2024, 2, 1);

  // An app's log, one logfmt line each; some messages quoted with spaces.
  data.app_log = Array.from({ length: 80 }, (_, i) => {
    const level = pick(["info", "info", "info", "warn", "error"]);
    const route = pick(["/api/cart", "/api/search", "/api/pay", "/api/login"]);
    const msg = level === "error" ? ` msg="${pick(["upstream timeout", "db locked", "bad token"])}"` : "";
    return `ts=${isoAt(t0 + i * 47e3)} level=${level} route=${route} user=${int(1, 60)} ms=${int(3, 900)}${msg}`;
  });

  // Suppliers' uploads: each holds its invoice lines as CSV text (quoted names with commas).
  data.uploads = ["acme", "globex", "initech", "umbrella"].map((vendor) => ({
    vendor,
    received: isoAt(t0 + int(0, 20) * 86400e3),
    csv: [
      "sku,description,qty,unit_price",
      ...Array.from({ length: int(3, 7) }, () => {
        const name = pick(["Bolt M4", "Nut, hex M4", "Washer", 'Cable "cat6", 2m']);
        return `S${int(100, 140)},"${name.replace(/"/g, '""')}",${int(1, 40)},${int(5, 900) / 100}`;
      }),
    ].join("\n"),
  }));

  // Service configs as a filesystem server's read_file returns them: JSON text.
  data.config_files = Object.fromEntries(
    ["auth", "billing", "search", "mailer", "reports"].map((name) => [
      `/srv/conf/${name}.json`,
      {
        content: JSON.stringify(
          { service: name, debug: random() < 0.5, pool: { max_connections: int(5, 60), idle_s: int(10, 300) } },
          null,
          2,
        ),
      },
    ]),
  );
  data.config_paths = Object.keys(data.config_files);

  // Prices scraped from European shops: "1.234,50 €".
  data.eu_prices = Array.from({ length: 30 }, () => {
    const cents = int(150, 250000);
    const whole = Math.floor(cents / 100)
      .toString()
      .replace(/\B(?=(\d{3})+(?!\d))/g, ".");
    return {
      product: pick(["kettle", "toaster", "blender", "espresso machine"]),
      shop: pick(["hausmarkt", "elektro-k", "bigbox", "cafeteria"]),
      price: `${whole},${String(cents % 100).padStart(2, "0")} €`,
    };
  });

  // Parcels with numeric ids; labels are TRK- and six digits.
  data.parcels = Array.from({ length: 25 }, () => ({
    id: int(1, 99999),
    delivered: random() < 0.6,
  }));

  // Sign-ups in the first half of March, some days without any.
  data.signups = Array.from({ length: 40 }, () => ({
    user: `u${int(100, 999)}`,
    at: isoAt(t0 + pick([0, 1, 2, 4, 5, 6, 8, 9, 12, 13]) * 86400e3 + int(0, 86399) * 1e3),
  }));

  // Paid invoices of 2024, none in some months.
  data.paid_invoices = Array.from({ length: 20 }, () => ({
    no: int(1000, 9999),
    paid_on: `2024-${String(pick([1, 2, 3, 5, 6, 8, 9, 11])).padStart(2, "0")}-${String(int(1, 28)).padStart(2, "0")}`,
  }));

  // A ticket export with some numbers missing (deleted tickets).
  data.ticket_export = Array.from({ length: 60 }, (_, i) => ({ no: 500 + i, title: `ticket ${500 + i}` })).filter(
    () => random() < 0.85,
  );
  return data;
}

module.exports = { addTextData };
