// Imaging module: JPEG decode/encode and scaling over libjpeg-turbo.
