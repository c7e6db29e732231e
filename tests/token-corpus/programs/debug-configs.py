import json
configs = [json.loads(read_file(path=p)["content"]) for p in config_paths]
debug = [c for c in configs if c["debug"]]
{"services": [c["service"] for c in debug], "connections": sum(c["pool"]["max_connections"] for c in debug)}
