// Uses KeyCatalogPlugin but has no keys.json.
