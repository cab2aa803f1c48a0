console.log('bg');
