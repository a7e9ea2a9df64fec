// PTPIP module
