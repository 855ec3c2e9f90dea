//! What the page teaches: the guided tour's stories (each a view, a scenario and where it
//! opens), the predictions its steps ask and how their answers are read off a run, the
//! chapters' self-checks and the key moments a step waits for. It reads the session and the
//! models below it and knows nothing of the page or its drawings.

pub mod key_moment;
pub mod migration_predictions;
pub mod pain_predictions;
pub mod predictions;
pub mod security_surface;
pub mod self_check;
pub mod stories;
