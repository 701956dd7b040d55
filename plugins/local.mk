# plugins
