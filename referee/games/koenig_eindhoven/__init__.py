"""Paul Koenig's Market-Garden: Eindhoven Bridge (Victory Point Games, 2012)."""
