// PTP module
