// Checks the catalog the build plugin generated from keys.json, against real stores.
// Exits 0 and prints "PluginClient: all checks passed" when every check holds.
import Foundation

exit(ClientChecks.run() ? 0 : 1)
