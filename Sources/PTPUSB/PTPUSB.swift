// PTPUSB module
