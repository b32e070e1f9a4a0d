__version__ = "0.1.0"


def __getattr__(name):
    "`ascendcraft.use(module, path)`: imported on first use, so `import ascendcraft` stays light (no torch)."
    if name == "use":
        from ascendcraft.export import use
        return use
    raise AttributeError(f"module 'ascendcraft' has no attribute {name!r}")
