// MediaFormats module
