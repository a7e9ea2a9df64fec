// MediaManager module
