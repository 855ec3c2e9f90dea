//! Every integration test of the core and the page reducer, as one test binary: one link of
//! the library instead of one a file (`cargo test --release --test suite NAME` runs some). The
//! first screen's page test stays a binary of its own: it is built without the `full` feature.

mod common;
mod fuzz;

mod broker_catch_up;
mod check_command;
mod checkers_can_fail;
mod class_mode;
mod contrast;
mod elr;
mod failover;
mod fencing;
mod fuzz_parsers;
mod history;
mod kafka_log;
mod kafka_log_props;
mod metadata_log_view;
mod migration;
mod migration_page;
mod migration_picture;
mod migration_timeline;
mod migration_view;
mod node_dirs;
mod page_params;
mod page_state;
mod picture_equality;
mod predictions;
mod predictions_page;
mod quorum_describe;
mod quorum_page;
mod quorum_state_machine;
mod race_question;
mod race_view;
mod readme_tree;
mod render;
mod scenarios;
mod self_checks;
mod session;
mod share_links;
mod sizing_command;
mod stills_page;
mod stories;
mod summary;
mod tour_steps;
mod voter_changes;
mod words_and_marks;
mod zk_scenarios;
mod zk_traces;
