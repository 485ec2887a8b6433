import KeyCatalog
