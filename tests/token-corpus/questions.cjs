// The questions of the token corpus: what an agent is asked, which context keys
// and tools its host gives (tools declared as data, see data.cjs). Each has two
// twins under programs/: <id>.json, the shortest natural PTC-JSON program (one
// line per turn, as a model writes it after reading the compact prompt), and
// <id>.py, the plain Python a model writes for Monty (turns split by a line
// "# turn"). The first 13 are the agent tasks of examples/agent-tasks.
"use strict";

const q = (id, question, context = [], tools = {}) => ({ id, question, context, tools });

module.exports = [
  q("revenue-per-category", "Completed revenue (2 decimals) and order count per category, largest first.", ["orders"]),
  q("revenue-per-month", "Completed revenue per UTC month (offsets in the timestamps), by month.", ["orders"]),
  q("search-latency", "Median and 95th percentile duration_ms of successful /api/search requests.", ["requests"]),
  q("top-salaries", "Five best-paid in Engineering (salary as text), ties by name: name and salary.", ["employees"]),
  q("stock-value", "Stock value (qty × text price, 'n/a' left out) per category, 2 decimals, by category.", [
    "products",
  ]),
  q("unpaid-invoices", "Count and total (2 decimals) of unpaid invoices; list_invoices is paginated.", [], {
    list_invoices: (d) => ({ kind: "pages", size: 25, items: d.invoices }),
  }),
  q(
    "carriers-of-latest-orders",
    "Carrier of each of the five latest completed orders, 'unknown' when the lookup fails.",
    ["orders"],
    {
      get_shipment: (d) => ({ kind: "lookup", key: "order_id", table: Object.fromEntries(d.shipments) }),
    },
  ),
  q(
    "low-spenders",
    "Turn 1: how many customers spent < 1500 on completed orders (keep them). Turn 2: the gold ones' names.",
    ["orders", "customers"],
  ),
  q("revenue-per-tier", "Completed revenue per customer tier (join orders and customers), by tier.", [
    "orders",
    "customers",
  ]),
  q("reorder", "SKUs at or below their reorder level, lowest stock first, then SKU.", ["products"]),
  q("open-escalations", "Open urgent/high tickets, urgent first, oldest first: id, priority, opened_at.", ["tickets"]),
  q("time-to-close", "Per team: closed tickets, closed within 24 h, median hours to close.", ["tickets"]),
  q("email-domains", "Customers per email domain (case-insensitive), most first, then A to Z.", ["customers"]),
  // New shapes.
  q("top-skus-in-carts", "The three SKUs with the most revenue (qty × price) over the carts' line items.", ["carts"]),
  q("busiest-local-day", "On which local date (as written, with its offset) were most orders placed, and how many?", [
    "orders",
  ]),
  q("weekend-share", "Percentage (1 decimal) of completed orders placed on a Saturday or Sunday (UTC).", ["orders"]),
  q("expenses-as-text", "Total expenses per category; amounts are text like '$1,234.50'. Largest first.", ["expenses"]),
  q("hours-as-text", "Total hours (2 decimals) per person from 'h:mm' texts, by person.", ["timesheet"]),
  q("sessions", "Sessions per user: views are sorted by user and time; a gap over 30 minutes starts a new one.", [
    "views",
  ]),
  q("peak-balance", "Replay the ledger in order (deposits add, withdrawals subtract): final and highest balance.", [
    "ledger",
  ]),
  q("wishlist-value", "Total price of the wishlist; get_prices takes at most 10 skus per call.", ["wishlist"], {
    get_prices: (d) => ({ kind: "batch", key: "skus", max: 10, table: d.prices }),
  }),
  q("audit-deletes", "Who deleted things, and how often? The audit log is behind a cursor.", [], {
    list_audit: (d) => ({ kind: "cursor", size: 20, items: d.audit }),
  }),
  q(
    "flagged-accounts",
    "Risk of each flagged account (null when the account lookup fails), riskiest first.",
    ["flagged"],
    {
      get_account: (d) => ({ kind: "lookup", key: "id", table: d.accounts }),
    },
  ),
  q("without-cart", "Customers without a cart: their ids.", ["customers", "carts"]),
  q("latest-status", "The current status of each ticket (its latest change): how many tickets per status?", [
    "status_log",
  ]),
  q("region-of-big-orders", "Per region, the number of orders over 300 (join with customers), by region.", [
    "orders",
    "customers",
  ]),
  q("orders-per-week", "Completed orders per ISO week of January 2024 (UTC).", ["orders"]),
  q("latency-histogram", "Successful requests per 100 ms bucket of duration (0, 100, ...), by bucket.", ["requests"]),
  q("gold-contacts", "'Name <email>' of the gold customers in the EU, sorted.", ["customers"]),
  // Text to parse and sequences (issue 35): questions-text.cjs.
  ...require("./questions-text.cjs"),
  // Lookups, quantifiers, ranks, trees and positions (issue 35).
  q("unpaid-with-tier", "Each unpaid invoice's number with its customer's name and tier.", ["invoices", "customers"]),
  q("regions-with-gold", "Per region (by region): does any of its customers have the gold tier?", ["customers"]),
  q("teams-all-closed", "Per team (by team): are all its tickets closed (closed_at set)?", ["tickets"]),
  q("leaderboard-places", "Places 5 to 10 of the leaderboard (points, highest first; ties in list order).", ["scores"]),
  q("leaderboard-top3", "Leaderboard, highest first, with dense ranks: the players in the top three ranks.", [
    "scores",
  ]),
  q("org-under-manager", "Names, sorted, of everyone under person 3 in the org chart, at any depth.", ["staff"]),
  q("headcount-per-lead", "For each direct report of person 1: name and headcount under them at any depth.", ["staff"]),
  q(
    "second-latest-order",
    "Turn 1: keep the three latest orders of C007 (ids, newest first). Turn 2: the second one's amount.",
    ["orders"],
  ),
];
