"""I/O shells around the sans-I/O protocol cores.  Imported lazily by the CLI; the browser
build never imports this package."""
