// The token corpus's questions of text to parse and sequences (issue 35): log
// lines, CSV in a field, JSON files read through a tool, money written the
// European way, padded ids, day and month ranges, missing numbers. Data in
// data-text.cjs; programs under programs/ as for every question.
"use strict";

const q = (id, question, context = [], tools = {}) => ({ id, question, context, tools });

module.exports = [
  q(
    "log-errors-per-route",
    "Per route: error lines of the key=value app log and their average ms (1 decimal), most errors first.",
    ["app_log"],
  ),
  q(
    "csv-upload-totals",
    "Invoice total (qty × unit_price, 2 decimals) per vendor from the CSV each upload holds, largest first.",
    ["uploads"],
  ),
  q(
    "debug-configs",
    "Read each config file (read_file gives JSON text): services with debug on, and their total max_connections.",
    ["config_paths"],
    {
      read_file: (d) => ({ kind: "lookup", key: "path", table: d.config_files }),
    },
  ),
  q("cheapest-eu-price", "Cheapest shop and price (a number) per product; prices read like '1.234,50 €'. By product.", [
    "eu_prices",
  ]),
  q("parcel-labels", "Labels 'TRK-' + the id zero-padded to 6 digits of the parcels not delivered, by id.", [
    "parcels",
  ]),
  q("daily-signups", "Sign-ups per UTC day from 1 to 14 March 2024, 0 on days without any: day and n.", ["signups"]),
  q("months-without-payments", "Which months of 2024 (YYYY-MM) had no paid invoice?", ["paid_invoices"]),
  q("missing-ticket-numbers", "Which ticket numbers between the lowest and the highest in the export are missing?", [
    "ticket_export",
  ]),
];
