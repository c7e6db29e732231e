// A file per concern: no source file under engine/ or js/src/ grows past 600
// lines (split it by concern, and name the new file in CONTRIBUTING's map).
const fs = require("node:fs");
const path = require("node:path");

const root = path.join(__dirname, "../..");
const MAX_LINES = 600;

test(`no source file under engine/ or js/src/ is over ${MAX_LINES} lines`, () => {
  const over = ["engine", "js/src"]
    .flatMap((dir) =>
      fs
        .readdirSync(path.join(root, dir), { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) =>
          path
            .relative(root, path.join(e.parentPath ?? e.path, e.name))
            .split(path.sep)
            .join("/"),
        ),
    )
    .map((file) => ({ file, lines: fs.readFileSync(path.join(root, file), "utf8").split("\n").length - 1 }))
    .filter(({ lines }) => lines > MAX_LINES);
  expect(over).toEqual([]);
});
