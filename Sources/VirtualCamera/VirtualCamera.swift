// VirtualCamera module
