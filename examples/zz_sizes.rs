fn main() {
    let n: u64 = std::env::args().nth(1).unwrap().parse().unwrap();
    let seed0: u64 = std::env::args().nth(2).unwrap().parse().unwrap();
    let setup = wumpus::grid::GridSetup::course(0.2, wumpus::grid::Scoring::Aima).unwrap();
    for i in 0..n {
        let seed = wumpus::rng::game_seed(seed0, i);
        let w = setup.deal_world(&mut wumpus::rng::seeded(seed)).unwrap();
        let (r, c) = w.size();
        println!("{seed},{r}x{c}");
    }
}
