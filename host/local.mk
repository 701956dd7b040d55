# host
