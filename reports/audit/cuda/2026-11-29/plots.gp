set terminal pngcairo size 1000,650 noenhanced
set grid
set key top left
set output 'ulp_histogram.png'
set title 'ULP error of every output, cuda (2026-11-29T12:42:38Z)'
set xlabel 'ulp error (bin centre)'
set ylabel 'outputs'
set logscale y
set xrange [0:*]
plot 'plot_histogram.dat' index 0 using 1:3 with steps title 'two_pass/seed', 'plot_histogram.dat' index 1 using 1:3 with steps title 'two_pass/hardened', 'plot_histogram.dat' index 2 using 1:3 with steps title 'three_pass'
set output 'worst_vs_n.png'
set title 'Worst ULP error and largest bound vs N, cuda (2026-11-29T12:42:38Z)'
set xlabel 'N'
set ylabel 'ulp'
set logscale xy
set xrange [*:*]
plot 'plot_worst_vs_n.dat' index 0 using 1:2 with linespoints lt 1 title 'two_pass/seed observed', '' index 0 using 1:3 with lines dt 2 lt 1 title 'two_pass/seed bound', 'plot_worst_vs_n.dat' index 1 using 1:2 with linespoints lt 2 title 'two_pass/hardened observed', '' index 1 using 1:3 with lines dt 2 lt 2 title 'two_pass/hardened bound', 'plot_worst_vs_n.dat' index 2 using 1:2 with linespoints lt 3 title 'three_pass observed', '' index 2 using 1:3 with lines dt 2 lt 3 title 'three_pass bound'
set output 'observed_vs_bound.png'
set title 'Observed vs bound at each configuration''s tightest element, cuda (2026-11-29T12:42:38Z)'
set xlabel 'bound (ulp)'
set ylabel 'observed (ulp)'
plot 'plot_observed_vs_bound.dat' index 0 using 1:2 with points pt 5 title 'two_pass/seed', 'plot_observed_vs_bound.dat' index 1 using 1:2 with points pt 6 title 'two_pass/hardened', 'plot_observed_vs_bound.dat' index 2 using 1:2 with points pt 7 title 'three_pass', x with lines dt 2 lc 'black' title 'observed = bound'
