// The `keycatalog` executable: everything lives in KeyCatalogGenerator so tests can drive it.
import KeyCatalogGenerator

KeyCatalogCommand.main()
