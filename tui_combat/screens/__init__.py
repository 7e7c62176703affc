"""The app's screens: each renders part of the store's state and turns keys into actions."""
