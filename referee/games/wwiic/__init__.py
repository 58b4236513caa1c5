"""WWII Commander: Market-Garden."""
