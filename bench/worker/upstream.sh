# The upstream of the gateway benches (peers.sh, routes.sh, h2-upstream.sh): one nginx worker pinned to CPU 1, keep-alive without a
# request limit, no access log, all its files in one folder. Sourced; defines nginx_conf_head and start_upstream.

# nginx_conf_head DIR: the start of an nginx.conf whose files all live in DIR, up to the open http block: one worker,
# keep-alive without a request limit, no access log.
nginx_conf_head() {
  local dir=$1
  cat <<CONF
worker_processes 1;
pid $dir/nginx.pid;
error_log $dir/error.log warn;
events { worker_connections 4096; }
http {
    access_log off;
    keepalive_requests 1000000;
    client_body_temp_path $dir/cb; proxy_temp_path $dir/p; fastcgi_temp_path $dir/f;
    uwsgi_temp_path $dir/u; scgi_temp_path $dir/s;
CONF
}

# start_upstream DIR ADDR PORT SERVER: writes DIR/nginx.conf, whose server block listens on ADDR:PORT and holds the
# lines SERVER (locations, root), and starts nginx in a background job; the caller keeps $! to stop it.
start_upstream() {
  local dir=$1 addr=$2 port=$3 server=$4
  mkdir -p "$dir"
  nginx_conf_head "$dir" > "$dir/nginx.conf"
  cat >> "$dir/nginx.conf" <<CONF
    server {
        listen $addr:$port;
        $server
    }
}
CONF
  taskset -c 1 nginx -p "$dir" -c "$dir/nginx.conf" -e "$dir/error.log" -g 'daemon off;' &
}
