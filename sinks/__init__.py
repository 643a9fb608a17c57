"""The memory lake and the state catalog: memories, attempt ledger, watermarks, nodes, parked
windows and runs, all in one DuckLake. Only the driver writes here."""
